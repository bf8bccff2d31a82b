/**
 * walkBeneath(): resolve a relative path below a root one component at a
 * time, expanding symbolic links as the kernel would but refusing the first
 * step out of the root instead of taking it. The one confinement walk of
 * every reader: the work tree and managed and home directories
 * (confined/read-confined.ts, over lstat/readlink) and a commit's tree
 * (source/git-tree.ts, over git objects) differ only in how they look up one
 * entry, which a caller passes as `lookup`.
 *
 * 1. `.` and empty segments are skipped; `..` pops a resolved segment, and
 *    `..` at the root is a step outside.
 * 2. A link's target is pushed in place of its name (a relative target is
 *    read from the link's directory, a root-relative one from the root); at
 *    most 40 links, then a loop. `lookup` reports a target that cannot stay
 *    inside the root as 'outside'.
 * 3. A directory before the last segment is descended into; a file there, or
 *    nothing, ends the walk as missing — or, when the last segment came from
 *    a link, as a broken link.
 */

/** A link's target: a posix path from the link's directory or from the root, or outside the root. */
export type LinkTarget = { path: string; fromRoot: boolean } | 'outside';

/** What `lookup` finds at a root-relative posix path whose directories are resolved. */
export type Entry<F> =
  | { kind: 'file' | 'dir'; value: F }
  | { kind: 'link'; target: LinkTarget }
  /** Nothing there: missing, or a broken link when a link led here. */
  | { kind: 'absent' }
  /** Not reachable (a name too long, a file used as a directory): missing, whatever led here. */
  | { kind: 'missing' }
  | { kind: 'error'; code: string };

export type Walked<F> =
  | { kind: 'file' | 'dir'; value: F; /** The resolved posix path below the root. */ realRel: string; /** Links followed on the way. */ links: number }
  | { kind: 'missing' | 'outside' | 'broken' | 'loop' }
  | { kind: 'error'; code: string };

/** Links followed while resolving one path (Linux's own limit is 40). */
const MAX_LINKS = 40;

/**
 * @param from a directory below the root already resolved (what this walk returned for it), to
 *   walk `rel` from instead of from the root: as if its path had been walked first, links included.
 */
export function walkBeneath<F>(rel: string, lookup: (path: string) => Entry<F>, from: { realRel: string; links: number } = { realRel: '', links: 0 }): Walked<F> {
  const todo = rel.split('/').reverse(); // a stack: next segment last
  // The resolved segments so far, as one path: extended and cut as segments are resolved and
  // popped (joining a list at every step made a path n segments deep cost n² characters).
  let prefix = from.realRel;
  let depth = prefix === '' ? 0 : prefix.split('/').length;
  const descend = (seg: string): void => {
    prefix = depth++ === 0 ? seg : `${prefix}/${seg}`;
  };
  const ascend = (): void => {
    prefix = --depth === 0 ? '' : prefix.slice(0, prefix.lastIndexOf('/'));
  };
  let links = from.links;
  let viaLink = false;
  for (let seg = todo.pop(); seg !== undefined; seg = todo.pop()) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (depth === 0) return { kind: 'outside' };
      ascend();
      continue;
    }
    const path = prefix === '' ? seg : `${prefix}/${seg}`;
    const found = lookup(path);
    switch (found.kind) {
      case 'error':
        return found;
      case 'missing':
        return { kind: 'missing' };
      case 'absent':
        return { kind: viaLink ? 'broken' : 'missing' };
      case 'link': {
        if (++links > MAX_LINKS) return { kind: 'loop' };
        if (found.target === 'outside') return { kind: 'outside' };
        if (todo.length === 0) viaLink = true;
        if (found.target.fromRoot) {
          depth = 0;
          prefix = '';
        }
        const segs = found.target.path.split('/');
        for (let i = segs.length - 1; i >= 0; i--) todo.push(segs[i] as string);
        continue;
      }
      default:
        if (todo.length === 0) return { kind: found.kind, value: found.value, realRel: path, links };
        if (found.kind === 'file') return { kind: 'missing' };
        descend(seg);
    }
  }
  return { kind: 'missing' }; // the root itself
}
