/**
 * Where the build cache lives, and whether this run may use it.
 *
 * 1. `--no-cache`: nothing is read or written.
 * 2. The cache is `<repo>/.rulec/cache/` (beside the policy). Discovery never
 *    takes a path below it as an input (exclusions.ts).
 * 3. A cache that git tracks came from a commit, so from whoever wrote that
 *    commit (a pull request can plant poisoned counts or a forged memo): it
 *    is ignored, with a note, and never written to. So is a `.rulec` or
 *    `.rulec/cache` that is a symbolic link or not a directory.
 * 4. Otherwise the directory is used; it is created (mode 0700, with a
 *    `.gitignore` that ignores everything in it) when the first file is written. Deleting it (`rm -rf .rulec/cache`) is always
 *    safe: the next build is cold and writes it again.
 * 5. A run that writes nothing (lint, explain, build --check) and finds no
 *    cache has nothing to read or refuse: no note, and git is not asked.
 */
import { lstatSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { diag, type Diagnostic } from '../diagnostics/diagnostic.js';

import { CACHE_PREFIX } from '../discover/exclusions.js';
import { runStatus } from '../source/git-run.js';

export { CACHE_PREFIX };

export interface CacheDir {
  /** The directory, or null when this run uses no cache. */
  dir: string | null;
  /** Why the cache is not used (RC1010), for the report. */
  notes: Diagnostic[];
}

/** `writes`: whether this run would create the cache (build); lint and explain only read one. */
export async function openCacheDir(repoDir: string, enabled: boolean, writes = true): Promise<CacheDir> {
  const unused: CacheDir = { dir: null, notes: [] };
  if (!enabled) return unused;
  const parent = join(repoDir, '.rulec');
  const dir = join(parent, 'cache');
  const refused = (why: string): CacheDir => ({
    dir: null,
    notes: [diag('RC1010', { file: CACHE_PREFIX.slice(0, -1), message: `the build cache is not used: ${why}` })],
  });
  for (const d of [parent, dir]) {
    let st;
    try {
      st = lstatSync(d, { throwIfNoEntry: false });
    } catch (e) {
      return refused(`${d === dir ? '.rulec/cache' : '.rulec'} cannot be inspected (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    if (st === undefined) {
      if (!writes) return unused;
      break;
    }
    if (!st.isDirectory()) return refused(`${d === dir ? '.rulec/cache' : '.rulec'} is ${st.isSymbolicLink() ? 'a symbolic link' : 'not a directory'}`);
  }
  const tracked = await trackedBelow(repoDir);
  if (tracked === null) return refused('git cannot list this directory (not a work tree, or git refuses it), so nothing shows that no commit planted the cache');
  if (tracked > 0) return refused(`git tracks ${tracked} file${tracked === 1 ? '' : 's'} in it (a cache from a commit is never trusted)`);
  return { dir, notes: [] };
}

/**
 * Create the directory (mode 0700) before a write, with a `.gitignore` of `*`
 * in it (as pytest and mypy do with theirs), so that `git add -A` never
 * commits the cache; the error code when it cannot be made.
 */
export function makeCacheDir(dir: string): string | null {
  try {
    mkdirSync(join(dir, '..'), { recursive: true });
    mkdirSync(dir, { mode: 0o700 });
    writeFileSync(join(dir, '.gitignore'), GITIGNORE, { mode: 0o600 });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'EEXIST') return code ?? 'error';
  }
  return null;
}

const GITIGNORE = '# rulec build cache (rulec build --help): never committed, safe to delete.\n*\n';

/**
 * How many index entries could stand in the cache's place, or null when git cannot say (no work
 * tree, no git, an owner git refuses): entries below `.rulec/cache/` in any letter case (a
 * case-insensitive file system opens `.rulec/Cache/tokens` as the cache), and a `.rulec` or
 * `.rulec/cache` that is a submodule (its files are not in this index). Pathspecs are pinned
 * (queryEnv), so the caller's GIT_*_PATHSPECS cannot hide an entry.
 */
async function trackedBelow(repoDir: string): Promise<number | null> {
  const r = await runStatus(repoDir, ['ls-files', '-z', '-s', '--', ':(icase).rulec']).catch(() => null);
  if (r?.code !== 0) return null;
  const out = r.stdout.toString('utf8');
  let n = 0;
  for (const entry of out.split('\0')) {
    // "<mode> <blob> <stage>\t<path>"
    const tab = entry.indexOf('\t');
    if (tab < 0) continue;
    const path = entry.slice(tab + 1).toLowerCase();
    const gitlink = entry.startsWith('160000 ');
    if (path.startsWith(CACHE_PREFIX) || (gitlink && (path === '.rulec' || path === CACHE_PREFIX.slice(0, -1)))) n++;
  }
  return n;
}
