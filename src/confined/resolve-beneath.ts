/**
 * Where a relative path leads below a root, resolved one component at a time
 * (walkBeneath over lstat, and readlink for links, at most 40): a step that
 * would leave the root ends the walk, and nothing outside the root is ever
 * stat'ed, so no answer can tell whether an outside file exists. The reader
 * (read-confined.ts) opens what this finds; commands that only ask what a
 * path is (explain, lint) ask here, without loading the reader's diagnostics.
 */
import { lstatSync, readlinkSync, type Stats } from 'node:fs';
import { sep } from 'node:path';
import { walkBeneath, type Entry, type Walked } from '../util/walk-beneath.js';

/** Linux limits: no file system call accepts a longer path or name. */
export const MAX_PATH_CHARS = 4096;
export const MAX_NAME_BYTES = 255;

/**
 * The absolute path of directory `rel` below `rootReal`, resolved like a read
 * (never through a step out of the root), or null when it is not a directory
 * there. Walks of a root's subdirectory (`~/.claude/rules`) start from it, so
 * a linked directory cannot make them list an outside directory's names.
 */
export function confinedDir(rootReal: string, rel: string): string | null {
  const found = confinedEntry(rootReal, rel);
  return found?.kind === 'dir' ? found.abs : null;
}

/**
 * What `rel` below `rootReal` is, resolved like a read (links followed only while they stay below
 * the root; nothing outside is stat'ed): 'file', 'dir', another kind of entry, with where it
 * really is, or null when there is nothing there that a read could reach.
 */
export function confinedEntry(rootReal: string, rel: string): { kind: 'file' | 'dir' | 'other'; realRel: string; abs: string } | null {
  if (rel === '') return { kind: 'dir', realRel: '', abs: rootReal };
  if (relProblem(rel) !== null) return null;
  const found = resolveBeneath(rootReal, rel);
  if (found.kind !== 'file' && found.kind !== 'dir') return null;
  const kind = found.kind === 'dir' ? 'dir' : found.value.stat.isFile() ? 'file' : 'other';
  return { kind, realRel: found.realRel, abs: found.value.abs };
}

export type Resolved = Walked<{ abs: string; stat: Stats }>;

/**
 * The directories one reader has already resolved, by the root-relative path asked for: a read
 * resolves its file's directory once per reader (a discovery and its import following), then only
 * its own name below it — so n files in one directory, or n imports into a chain d directories
 * deep, cost one walk of the directory and n lookups, not n walks (n × d lstats of paths d long).
 * A directory swapped for a link after its walk is still caught when the file is opened
 * (read-confined.ts, step 4).
 */
export type ResolveMemo = Map<string, Resolved>;

/** `rel` below `rootReal` through walkBeneath (util/walk-beneath.ts), over lstat and readlink. */
export function resolveBeneath(rootReal: string, rel: string, memo?: ResolveMemo): Resolved {
  const base = rootReal.endsWith(sep) ? rootReal.slice(0, -1) : rootReal;
  const look = (path: string): Entry<{ abs: string; stat: Stats }> => lookup(base, path);
  const slash = rel.lastIndexOf('/');
  if (memo === undefined || slash < 0) return walkBeneath(rel, look);
  const dirRel = rel.slice(0, slash);
  let dir = memo.get(dirRel);
  if (dir === undefined) memo.set(dirRel, (dir = walkBeneath(dirRel, look)));
  switch (dir.kind) {
    case 'dir': return walkBeneath(rel.slice(slash + 1), look, dir);
    // As the whole path's walk ends: a file or nothing where a directory should be is missing.
    case 'file': case 'broken': return { kind: 'missing' };
    default: return dir;
  }
}

function lookup(base: string, path: string): Entry<{ abs: string; stat: Stats }> {
  const abs = `${base}${sep}${sep === '/' ? path : path.split('/').join(sep)}`;
  let st: Stats | undefined;
  try {
    st = lstatSync(abs, { throwIfNoEntry: false });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'error';
    return code === 'ENOTDIR' || code === 'ENAMETOOLONG' ? { kind: 'missing' } : { kind: 'error', code };
  }
  if (st === undefined) return { kind: 'absent' };
  if (!st.isSymbolicLink()) return { kind: st.isDirectory() ? 'dir' : 'file', value: { abs, stat: st } };
  let target: string;
  try {
    target = readlinkSync(abs);
  } catch (e) {
    return { kind: 'error', code: (e as NodeJS.ErrnoException).code ?? 'error' };
  }
  if (target.startsWith('/') || (sep === '\\' && /^[A-Za-z]:|^\\\\/.test(target))) {
    // An absolute target is followed only when it names a place below the real root, spelled literally.
    const inside = target === base ? '' : relativeInside(base, target);
    return { kind: 'link', target: inside === null ? 'outside' : { path: inside, fromRoot: true } };
  }
  return { kind: 'link', target: { path: sep === '/' ? target : target.split(sep).join('/'), fromRoot: false } };
}

/** Why `rel` is not a plain path below a root, or null when it is. */
export function relProblem(rel: string): string | null {
  if (rel.length > MAX_PATH_CHARS) return 'too-long';
  if (rel === '' || rel.startsWith('/') || rel.includes('\0')) return 'is not a relative path inside its root';
  if (sep === '\\' && (rel.includes('\\') || rel.includes(':'))) return 'is not a relative path inside its root';
  for (const seg of rel.split('/')) {
    if (seg === '' || seg === '.' || seg === '..') return 'is not a plain path inside its root';
    if (seg.length > MAX_NAME_BYTES && Buffer.byteLength(seg) > MAX_NAME_BYTES) return 'too-long';
  }
  return null;
}

/** `real` relative to `rootReal` as a posix path when it lies strictly inside it, else null. */
export function relativeInside(rootReal: string, real: string): string | null {
  const prefix = rootReal.endsWith(sep) ? rootReal : rootReal + sep;
  if (!real.startsWith(prefix) || real.length === prefix.length) return null;
  const rest = real.slice(prefix.length);
  return sep === '/' ? rest : rest.split(sep).join('/');
}
