/**
 * SessionClasses works out each directory's agent-visible entries in one pass
 * over the paths. The reference below is the definition it stands for: for
 * every directory from the root down, the file names any profile reads there
 * (exists) and the containers it lists (entryExists, a file or a directory).
 * Equal keys, equal classes: the partitions must agree on any tree.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SessionClasses, sessionDir, type SessionClass } from '../../src/profiles/session-classes.js';
import type { RepoView } from '../../src/profiles/types.js';

const NAMES = ['AGENTS.override.md', 'AGENTS.md', 'CLAUDE.md', 'CLAUDE.local.md', 'GEMINI.md', 'QWEN.md', '.cursorrules', '.git'];
const CONTAINERS = ['.claude', '.github', '.cursor'];
const EXTRA = ['CONTEXT.md', 'docs/CONTEXT.md'];

const parentOf = (d: string): string => (d.includes('/') ? d.slice(0, d.lastIndexOf('/')) : '');
const join = (dir: string, name: string): string => (dir === '' ? name : `${dir}/${name}`);

function referenceClasses(paths: readonly string[], dirs: readonly string[]): SessionClass[] {
  const files = new Set(paths);
  const folders = new Set<string>();
  for (const p of paths) for (let i = p.indexOf('/'); i >= 0; i = p.indexOf('/', i + 1)) folders.add(p.slice(0, i));
  const names = [...new Set([...NAMES, ...EXTRA])];
  const key = (dir: string): string => {
    const own = [...names.filter((n) => files.has(join(dir, n))), ...CONTAINERS.filter((c) => files.has(join(dir, c)) || folders.has(join(dir, c)))];
    return (dir === '' ? '' : key(parentOf(dir))) + (own.length === 0 ? '' : `${dir}:${own.join(',')}\n`);
  };
  const perDir = new Map<string, number>();
  for (const p of paths) perDir.set(parentOf(p), (perDir.get(parentOf(p)) ?? 0) + 1);
  const byKey = new Map<string, SessionClass>();
  for (const listed of dirs) {
    const dir = sessionDir(listed);
    const k = key(dir);
    const c = byKey.get(k);
    const count = perDir.get(listed) ?? 0;
    if (!c) byKey.set(k, { dir, pathCount: count });
    else {
      c.pathCount += count;
      if (dir.length < c.dir.length || (dir.length === c.dir.length && dir < c.dir)) c.dir = dir;
    }
  }
  return [...byKey.values()];
}

const sorted = (classes: SessionClass[]): SessionClass[] => [...classes].sort((a, b) => (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0));

const segment = fc.constantFrom('a', 'b', 'src', 'docs', '.github', '.claude', '.cursor', '.git');
const leaf = fc.constantFrom(...NAMES, ...CONTAINERS, 'x.ts', 'CONTEXT.md', 'rules.md');
const path = fc.tuple(fc.array(segment, { maxLength: 4 }), leaf).map(([dirs, name]) => [...dirs, name].join('/'));

describe('SessionClasses', () => {
  it('partitions directories exactly as the per-directory definition does', () => {
    fc.assert(fc.property(fc.uniqueArray(path, { minLength: 1, maxLength: 40 }), (list) => {
      const paths = [...list].sort();
      const view = { paths } as unknown as RepoView;
      // Every directory of the tree, not only those that hold a file.
      const dirs = [...new Set(paths.flatMap((p) => { const out = ['']; for (let d = parentOf(p); d !== ''; d = parentOf(d)) out.push(d); return out; }))].sort();
      const got = new SessionClasses(view, EXTRA, new Set()).classesOf(dirs, []);
      expect(sorted(got)).toEqual(sorted(referenceClasses(paths, dirs)));
    }), { numRuns: 300 });
  });

  it('tells apart directories that differ only by a nested configured name or a container file', () => {
    const paths = ['a/AGENTS.md', 'a/docs/CONTEXT.md', 'b/AGENTS.md', 'c/.github', 'c/x.ts', 'd/x.ts'];
    const got = new SessionClasses({ paths } as unknown as RepoView, EXTRA, new Set()).classesOf(['a', 'b', 'c', 'd'], []);
    expect(sorted(got).map((c) => c.dir)).toEqual(['a', 'b', 'c', 'd']);
  });
});
