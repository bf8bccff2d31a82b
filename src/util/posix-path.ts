/** Repo-relative posix path helpers. '' is the repo root. */

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
  if (dir === '') return [''];
  const parts = dir.split('/');
  const out = [''];
  for (let i = 1; i <= parts.length; i++) out.push(parts.slice(0, i).join('/'));
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
