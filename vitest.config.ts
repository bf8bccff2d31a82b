import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Fixture repositories hold files named *.test.ts that are data, not tests.
const exclude = ['**/node_modules/**', 'test/fixtures/*/repo/**', 'test/fixtures/*/managed/**', 'test/bad-inputs/*/repo/**',
  'test/bad-inputs/*/managed/**', 'test/profiles/fixtures/**'];
// Pure suites: they touch no process-wide state (cwd, env, umask), so their files share one module
// graph per worker — the tokenizer's rank table, built once per worker (1–2 s) instead of once per file.
// Not the cost tests: their n-against-2n timings need a heap of their own (another file's garbage
// makes major GCs in the large run, and a ratio over 3).
const shared = ['test/unit/**/*.test.ts', 'test/conflicts/**/*.test.ts', 'test/lint/**/*.test.ts',
  'test/profiles/**/*.test.ts', 'test/diff/**/*.test.ts', 'test/report/**/*.test.ts', 'test/corpus/**/*.test.ts',
  'test/golden.test.ts', 'test/bad-inputs.test.ts', 'test/determinism.test.ts'];

// Timing ratios inside otherwise pure suites: isolated too, for the same reason as the cost tests.
const timing = ['test/lint/never-throws.test.ts', 'test/lint/secret-rules-linear.test.ts'];

export default defineConfig({
  test: {
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
    projects: [
      { extends: true, test: { name: 'shared', include: shared, exclude: [...exclude, ...timing], isolate: false } },
      { extends: true, test: { name: 'isolated', include: ['test/**/*.test.ts'], exclude: [...exclude, ...shared] } },
      { extends: true, test: { name: 'timing', include: timing, exclude } },
    ],
  },
});
