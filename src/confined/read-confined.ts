/**
 * readConfined(): the one function through which rulec reads an input file
 * (instruction files, imports, managed and user files, the repository's policy
 * file, the files `explain --profile` shows). It never leaves its root:
 *
 * 1. Refuse a relative path that is not a plain posix path below the root
 *    (empty, absolute, `.`/`..` or empty segments, NUL, over PATH_MAX/NAME_MAX).
 * 2. Resolve the path one component at a time below the real root (resolve-beneath.ts, walkBeneath
 *    over lstat, and readlink for links, at most 40): the first step that would leave the
 *    root is a refusal. Nothing outside the root is ever stat'ed, so a
 *    diagnostic cannot even tell whether an outside file exists.
 * 3. Only a regular file is opened (opening a FIFO blocks, opening a device
 *    can have side effects), and never one on a special file system (/proc,
 *    /sys), whose "files" are live process state.
 * 4. Open it without following a final symlink and without blocking, then fstat
 *    the descriptor: still a regular file, the same device and inode as step 2.
 *    On Linux the descriptor's own path (/proc/self/fd/N) must still lie inside
 *    the root, so a directory swapped for a symlink after step 2 is caught.
 * 5. Refuse files over the byte limit unread; read at most limit + 1 bytes even
 *    if the file grows while it is read.
 */
import { closeSync, constants, fstatSync, openSync, readlinkSync, readSync, statSync, type Stats } from 'node:fs';
import { diag, type Diagnostic } from '../diagnostics/diagnostic.js';
import { relProblem, relativeInside, resolveBeneath, type ResolveMemo } from './resolve-beneath.js';

export type ReadOutcome =
  | { ok: true; bytes: Uint8Array; /** Posix path of the real file relative to the root (differs from `rel` through symlinks). */ realRel: string }
  | { ok: false; missing: true }
  | { ok: false; missing: false; diagnostic: Diagnostic };


const MISSING: ReadOutcome = { ok: false, missing: true };
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);
const OUTSIDE = 'path leads outside its root through a symbolic link; not loaded';

/**
 * @param rootReal realpath of the root (repository, managed or home directory)
 * @param rel posix path relative to the root, as git or a walk lists it
 * @param id the id shown in diagnostics
 */
export function readConfined(rootReal: string, rel: string, id: string, maxBytes: number, memo?: ResolveMemo): ReadOutcome {
  const refusal = relProblem(rel);
  if (refusal === 'too-long') return MISSING;
  if (refusal !== null) return fail('RC1002', id, `path ${refusal}; not loaded`);
  const found = resolveBeneath(rootReal, rel, memo);
  switch (found.kind) {
    case 'missing':
    case 'dir': return MISSING;
    case 'outside': return fail('RC1002', id, OUTSIDE);
    case 'broken': return fail('RC1005', id, 'symbolic link points to a file that does not exist');
    case 'loop': return fail('RC1005', id, 'symbolic link loop (or over 40 links); not loaded');
    case 'error': return fail('RC1001', id, `cannot read file (${found.code})`);
    default: break;
  }
  const before = found.value.stat;
  const special = specialKind(before);
  if (special) return fail('RC1007', id, `${special}; not read`);
  if (before.size > maxBytes) return tooLarge(id, before.size, maxBytes);
  return readOpened(rootReal, found.value.abs, found.realRel, before, id, maxBytes);
}

function readOpened(rootReal: string, real: string, realRel: string, before: Stats, id: string, maxBytes: number): ReadOutcome {
  let fd: number;
  try {
    fd = openSync(real, OPEN_FLAGS);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') return fail('RC1002', id, 'file was replaced by a symbolic link while it was read; not loaded');
    return code === 'ENOENT' || code === 'ENOTDIR' ? MISSING : fail('RC1001', id, `cannot read file (${code ?? 'error'})`);
  }
  try {
    const st = fstatSync(fd);
    const special = specialKind(st);
    if (special) return fail('RC1007', id, `${special}; not read`);
    if (st.dev !== before.dev || st.ino !== before.ino || !openedInside(fd, rootReal)) {
      return fail('RC1002', id, 'file changed while it was read (a path component was swapped); not loaded');
    }
    if (st.size > maxBytes) return tooLarge(id, st.size, maxBytes);
    const bytes = readAtMost(fd, st.size, maxBytes + 1);
    if (bytes.length > maxBytes) return tooLarge(id, bytes.length, maxBytes);
    return { ok: true, bytes, realRel };
  } catch (e) {
    return fail('RC1001', id, `cannot read file (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  } finally {
    closeSync(fd);
  }
}

/** What makes a stat'ed entry unreadable as an input, or null for a regular file on an ordinary file system. */
function specialKind(st: Stats): string | null {
  if (st.isFIFO()) return 'is a named pipe (FIFO), not a regular file';
  if (st.isSocket()) return 'is a socket, not a regular file';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'is a device, not a regular file';
  if (!st.isFile()) return 'is not a regular file';
  if (specialDevices().has(st.dev)) return 'lives on a special file system (/proc, /sys), not a regular file';
  return null;
}

let special: Set<number> | null = null;

/**
 * Devices of the pseudo file systems whose files are live kernel or process
 * state. Only mount points count: a plain `/sys` directory on the root file
 * system has the root's device and must not make every file special.
 */
function specialDevices(): Set<number> {
  if (special) return special;
  special = new Set();
  let rootDev: number;
  try {
    rootDev = statSync('/').dev;
  } catch {
    return special;
  }
  for (const dir of ['/proc', '/sys', '/dev']) {
    try {
      const dev = statSync(dir).dev;
      if (dev !== rootDev) special.add(dev);
    } catch {
      // not present on this platform
    }
  }
  return special;
}

/** On Linux, the path the kernel holds for the open descriptor must still lie inside the root. */
function openedInside(fd: number, rootReal: string): boolean {
  if (process.platform !== 'linux') return true;
  let held: string;
  try {
    held = readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return true; // /proc not mounted: the device/inode comparison stands alone
  }
  return relativeInside(rootReal, held) !== null;
}

/** Read to end of file, at most `limit` bytes; `size` (from fstat) sizes the first buffer. */
function readAtMost(fd: number, size: number, limit: number): Uint8Array {
  let buf = Buffer.allocUnsafe(Math.min(limit, size + 1));
  let total = 0;
  for (;;) {
    if (total === buf.length) {
      if (total >= limit) break;
      // The file grew since fstat: keep reading, in bounded steps, up to the limit.
      const bigger = Buffer.allocUnsafe(Math.min(limit, total + (1 << 16)));
      buf.copy(bigger, 0, 0, total);
      buf = bigger;
    }
    const n = readSync(fd, buf, total, buf.length - total, null);
    if (n === 0) break;
    total += n;
  }
  return buf.subarray(0, total);
}

function tooLarge(id: string, size: number, maxBytes: number): ReadOutcome {
  return fail('RC1006', id, `file is ${size} bytes, over the ${maxBytes}-byte read limit; not loaded`);
}

function fail(code: string, id: string, message: string): ReadOutcome {
  return { ok: false, missing: false, diagnostic: diag(code, { file: id, message }) };
}
