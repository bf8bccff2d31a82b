/**
 * Repo-relative posix path helpers. '' is the repo root. Every helper is a
 * loop over the string (no recursion, no argument spreading), so a path's
 * length or depth never exhausts the stack.
 */

export function dirnameOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

export function basenameOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

export function joinPath(dir: string, name: string): string {
  return dir === '' ? name : `${dir}/${name}`;
}

/** Every ancestor directory of `dir`, root first, ending with `dir` itself. */
export function ancestorDirs(dir: string): string[] {
  const out = [''];
  if (dir === '') return out;
  // Slices at each separator: linear in the path's length, whatever its depth.
  for (let i = dir.indexOf('/'); i >= 0; i = dir.indexOf('/', i + 1)) out.push(dir.slice(0, i));
  out.push(dir);
  return out;
}

/** True when `path` is `dir` or lies below it. */
export function isWithin(path: string, dir: string): boolean {
  return dir === '' || path === dir || path.startsWith(`${dir}/`);
}

/**
 * Resolve `target` against directory `dir`, posix-style. Returns null when the
 * result climbs above the root ('..' past the top), so callers can report it.
 */
export function resolveRelative(dir: string, target: string): string | null {
  const parts = dir === '' ? [] : dir.split('/');
  for (const seg of target.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(seg);
  }
  return parts.join('/');
}

/** Normalise an OS path fragment to posix separators. */
export function toPosix(p: string): string {
  return p.split('\\').join('/');
}
