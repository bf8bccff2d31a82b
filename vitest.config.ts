import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { defineConfig, type Plugin } from 'vitest/config';
import { scratchDir } from './test/helpers/scratch-dir.js';

// Temporary files on a tmpfs when the machine has one (test/helpers/scratch-dir.ts says why). Set
// here, before the global setup and the workers start, so all of them and every process they
// spawn share it.
const scratch = scratchDir();
if (scratch !== null) process.env.TMPDIR = scratch;

// Fixture repositories hold files named *.test.ts that are data, not tests.
const exclude = ['**/node_modules/**', 'test/fixtures/*/repo/**', 'test/fixtures/*/managed/**', 'test/bad-inputs/*/repo/**',
  'test/bad-inputs/*/managed/**', 'test/profiles/fixtures/**'];

// Test files share one module graph per worker (`isolate: false`): the source is imported and the
// tokenizer's rank table built once per worker, not once per file. A file runs isolated only for a
// reason, listed here:
const isolated = [
  // They set process-wide state a later file in the same worker would see, or must not inherit
  // it: a registered format (derived tables keep it), the worker pool's idle workers, a module mock
  // (vi.mock of node:fs), the test-repository cache's root (read when its module loads).
  'test/determinism.test.ts', 'test/formats/test-only-format.test.ts', 'test/repo-cache.test.ts', 'test/worker-pool.test.ts',
];
// Cost ratios: their n-against-2n timings need a heap without the other tests' garbage (a compile's
// garbage makes major GCs in the large run, and a ratio over 3). They share workers with each other
// only: each of them drops its inputs when it ends, and importing the source once per worker
// instead of once per file saves a second each.
const cost = ['test/cost/**/*.test.ts', 'test/lint/never-throws.test.ts', 'test/lint/secret-rules-linear.test.ts'];

/**
 * What a cached transform also depends on and vitest's key leaves out: the TypeScript options
 * esbuild reads (tsconfig*.json: `useDefineForClassFields` changes what a class compiles to), and
 * the set of source files (a transform holds its imports resolved to files, so adding, moving or
 * removing one can change them while the importer's text stays the same).
 */
function transformKey(): Plugin {
  const hash = createHash('sha256');
  for (const name of readdirSync('.').filter((f) => /^tsconfig.*\.json$/.test(f)).sort()) hash.update(`${name}\0${readFileSync(name, 'utf8')}\0`);
  for (const dir of ['src', 'test']) {
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => /\.[cm]?[jt]sx?$|\.json$/.test(f)).sort();
    hash.update(`${dir}\0${files.join('\0')}\0`);
  }
  const key = hash.digest('hex');
  return { name: 'rulec:transform-key', configureVitest: ({ experimental_defineCacheKeyGenerator }) => experimental_defineCacheKeyGenerator(() => key) };
}

export default defineConfig({
  plugins: [transformKey()],
  test: {
    // Builds the shared fixture repositories once (test/helpers/repo-cache.ts).
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    // Shared fixture trees are read-only (test/helpers/repo-cache.ts), and `rulec build` writes its
    // cache into the repository it builds: off unless a test turns it on (test/cache/*.test.ts).
    env: { RULEC_NO_CACHE: '1' },
    hookTimeout: 120_000,
    // Transformed modules are kept on disk (node_modules/.experimental-vitest-cache): the three
    // projects' workers, and every later run, reuse them instead of transforming the source again.
    // A fresh clone's run went from 15.2 s of transform to 9.5 s (npm test 131 s to 127 s), and a
    // rerun of test/unit and test/conflicts from 12.4 s to 8.9 s. Vitest keys a module by its
    // content, id and this config; transformKey() above adds what it leaves out.
    experimental: { fsModuleCache: true },
    // Child processes, not worker threads: tests spawn git and rulec hundreds of times, and Linux
    // forks the whole parent to spawn — with threads that was one process holding every worker's
    // heap, and copying its page tables was a third of the suite's CPU (sys 140 s of 390 s; with
    // forks 63 s). Not vmThreads: there errors thrown by node:fs are not `instanceof Error` in the
    // test's realm.
    pool: 'forks',
    // Vitest leaves one core to its main process (1 worker on 2 cores), but test files here wait on
    // git and child processes much of the time: one worker per core keeps both cores busy.
    maxWorkers: Math.max(2, availableParallelism()),
    projects: [
      { extends: true, test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: [...exclude, ...isolated, ...cost], isolate: false } },
      { extends: true, test: { name: 'cost', include: cost, exclude, isolate: false } },
      { extends: true, test: { name: 'isolated', include: isolated, exclude } },
    ],
  },
});
