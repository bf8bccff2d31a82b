/**
 * The shared test-repository cache (helpers/repo-cache.ts): a tree is built
 * once per set of inputs, reused while they are unchanged, rebuilt under a new
 * name when one changes, never published half-built, and pruned once unused.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as RepoCache from './helpers/repo-cache.js';

const DAY = 24 * 3600 * 1000;
const root = mkdtempSync(join(tmpdir(), 'rulec-cache-test-'));
const source = join(root, 'source');
let cache: typeof RepoCache;

beforeAll(async () => {
  process.env.RULEC_TEST_CACHE = join(root, 'cache');
  cache = await import('./helpers/repo-cache.js');
  mkdirSync(join(source, 'docs'), { recursive: true });
  writeFileSync(join(source, 'AGENTS.md'), '# Root\n');
  writeFileSync(join(source, 'docs', 'CLAUDE.md'), '# Docs\n');
});
afterAll(() => {
  delete process.env.RULEC_TEST_CACHE;
  rmSync(root, { recursive: true, force: true });
});

/** A recipe that copies `source` and then runs `extra` (a shell command) in the tree; counts its builds. */
function recipe(id: string, builds: { n: number }, extra = 'true'): RepoCache.Recipe {
  return {
    id,
    inputs: (hash) => { cache.hashTree(hash, source, 'source'); hash.update(extra); },
    prepare: (dir) => {
      builds.n++;
      for (const rel of ['AGENTS.md', 'docs/CLAUDE.md']) {
        mkdirSync(join(dir, 'repo', rel, '..'), { recursive: true });
        writeFileSync(join(dir, 'repo', rel), readFileSync(join(source, rel)));
      }
    },
    commands: () => [{ file: 'sh', args: ['-c', extra], cwd: 'repo' }],
  };
}

describe('repo cache', () => {
  it('builds a tree once and hands the same tree out while its inputs are unchanged', () => {
    const builds = { n: 0 };
    const first = cache.sharedTree(recipe('same', builds));
    const again = cache.sharedTree(recipe('same', builds));
    expect(again).toBe(first);
    expect(builds.n).toBe(1);
    expect(readFileSync(join(first, 'repo', 'docs', 'CLAUDE.md'), 'utf8')).toBe('# Docs\n');
    expect(first.startsWith(join(root, 'cache'))).toBe(true);
  });

  it('builds a new tree when an input changes, and prune removes only trees unused for longer than asked', () => {
    const builds = { n: 0 };
    const before = cache.sharedTree(recipe('edited', builds));
    writeFileSync(join(source, 'docs', 'CLAUDE.md'), '# Docs, edited\n');
    const edited = recipe('edited', builds);
    const after = cache.sharedTree(edited);
    expect(after).not.toBe(before);
    expect(builds.n).toBe(2);
    expect(readFileSync(join(after, 'repo', 'docs', 'CLAUDE.md'), 'utf8')).toBe('# Docs, edited\n');
    const threeDaysAgo = new Date(Date.now() - 3 * DAY);
    for (const dir of readdirSync(join(root, 'cache'))) utimesSync(join(root, 'cache', dir), threeDaysAgo, threeDaysAgo);
    cache.touchTrees([edited]);
    expect(cache.pruneTrees(2 * DAY)).toBeGreaterThanOrEqual(1);
    expect([existsSync(before), existsSync(after)]).toEqual([false, true]);
    // Using a tree marks it too: handed out again, it survives the next prune.
    utimesSync(after, threeDaysAgo, threeDaysAgo);
    expect(cache.sharedTree(recipe('edited', builds))).toBe(after);
    expect(cache.pruneTrees(2 * DAY)).toBe(0);
    expect(existsSync(after)).toBe(true);
  });

  it('publishes nothing when a command fails, and leaves no temp dir behind', async () => {
    const builds = { n: 0 };
    const failing = recipe('failing', builds, 'exit 3');
    expect(() => cache.sharedTree(failing)).toThrow();
    await expect(cache.buildTrees([recipe('failing', builds, 'exit 3')], 2)).rejects.toThrow();
    expect(existsSync(cache.treePath(failing))).toBe(false);
    expect(readdirSync(join(root, 'cache')).filter((n) => n.startsWith('.tmp-'))).toEqual([]);
  });

  it('global setup builds only what is missing, several at a time', async () => {
    const builds = { n: 0 };
    const recipes = ['p1', 'p2', 'p3'].map((id) => recipe(id, builds, `echo ${id} > built.txt`));
    expect((await cache.buildTrees(recipes, 2)).sort()).toEqual(['p1', 'p2', 'p3']);
    expect(await cache.buildTrees(recipes.map((r) => recipe(r.id, builds, `echo ${r.id} > built.txt`)), 2)).toEqual([]);
    expect(builds.n).toBe(3);
    expect(readFileSync(join(cache.treePath(recipes[1] as RepoCache.Recipe), 'repo', 'built.txt'), 'utf8')).toBe('p2\n');
  });

  it('copyTree hands out a private copy that does not touch the shared tree', () => {
    const shared = cache.sharedTree(recipe('copied', { n: 0 }));
    const copy = cache.copyTree(shared);
    try {
      writeFileSync(join(copy, 'repo', 'AGENTS.md'), 'changed\n');
      expect(readFileSync(join(shared, 'repo', 'AGENTS.md'), 'utf8')).not.toBe('changed\n');
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});

describe('removeOrphans', () => {
  it('removes the temp directories of processes that are gone, and only those', () => {
    const prefix = `rulec-orphan-test-${process.pid}x-`;
    const gone = mkdtempSync(join(tmpdir(), `${prefix}999999999-`));
    const alive = mkdtempSync(join(tmpdir(), `${prefix}${process.pid}-`));
    try {
      expect(cache.removeOrphans(prefix)).toBe(1);
      expect([existsSync(gone), existsSync(alive)]).toEqual([false, true]);
    } finally {
      rmSync(alive, { recursive: true, force: true });
    }
  });
});
