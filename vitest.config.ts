import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Fixture repositories hold files named *.test.ts that are data, not tests.
    exclude: ['**/node_modules/**', 'test/fixtures/*/repo/**', 'test/fixtures/*/managed/**', 'test/bad-inputs/*/repo/**',
      'test/bad-inputs/*/managed/**', 'test/profiles/fixtures/**'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
