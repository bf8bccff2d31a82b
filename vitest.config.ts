import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Fixture repositories hold files named *.test.ts that are data, not tests.
    exclude: ['**/node_modules/**', 'test/fixtures/*/repo/**', 'test/fixtures/*/managed/**', 'test/bad-inputs/*/repo/**',
      'test/bad-inputs/*/managed/**', 'test/profiles/fixtures/**'],
    // Builds the shared fixture repositories once (test/helpers/repo-cache.ts).
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Worker threads: the same isolation per file as forks at less cost per file. Not vmThreads:
    // there errors thrown by node:fs are not `instanceof Error` in the test's realm.
    pool: 'threads',
    // Vitest leaves one core to its main process (1 worker on 2 cores), but test files here wait on
    // git and child processes much of the time: one worker per core keeps both cores busy.
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
