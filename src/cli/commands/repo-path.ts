/**
 * A PATH argument of `explain` or `lint`, as a repository-relative posix path.
 * A path that leaves the repository is refused (UsageError): rulec answers
 * only about the repository it compiles. Whether the path exists is a
 * separate question the commands answer in their output.
 */
import { lstatSync } from 'node:fs';
import { confinedDir } from '../../confined/resolve-beneath.js';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { UsageError } from '../../util/errors.js';
import { resolveRelative, toPosix } from '../../util/posix-path.js';
import type { Io } from '../io.js';
import { realPath } from '../../util/real-path.js';

export function repoRelative(io: Io, repoDir: string, target: string): string {
  const abs = isAbsolute(target) ? target : resolve(io.cwd, target);
  const rel = relative(repoDir, abs);
  const inside = rel === '' || (rel !== '..' && !rel.startsWith(`..${'/'}`) && !rel.startsWith('..\\') && !isAbsolute(rel));
  // From outside the repository (--repo elsewhere), a relative PATH is read from the repository root.
  const chosen = inside && (isAbsolute(target) || io.cwd.startsWith(repoDir)) ? rel : target;
  const normal = isAbsolute(chosen) ? null : resolveRelative('', toPosix(chosen));
  if (normal === null) throw new UsageError(`${target} is outside the repository ${repoDir}; rulec answers only for paths inside it`);
  return normal;
}

/** True when the repository-relative `path` names something in the work tree ('' is the root). */
export function inWorkTree(repoDir: string, path: string): boolean {
  return workTreeEntry(repoDir, path) !== null;
}

/**
 * What `path` (repo-relative, posix) is in the work tree, not following a final symlink: null when
 * nothing is there. Its directory is resolved as a read resolves it (src/confined): through a link
 * that leaves the repository there is nothing, and nothing outside is stat'ed, so the answer never
 * tells whether an outside file exists.
 */
export function workTreeEntry(repoDir: string, path: string): 'directory' | 'other' | null {
  if (path === '') return 'directory';
  try {
    const slash = path.lastIndexOf('/');
    const dir = confinedDir(realPath(repoDir), slash < 0 ? '' : path.slice(0, slash));
    if (dir === null) return null;
    return lstatSync(join(dir, path.slice(slash + 1))).isDirectory() ? 'directory' : 'other';
  } catch {
    return null;
  }
}
