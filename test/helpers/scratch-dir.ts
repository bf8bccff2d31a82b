/**
 * Where the suite's temporary files go. The tests make and delete tens of
 * thousands of files (fixture copies, `git init`, bundles written and
 * removed). On a file system without a journal, as the project machine's
 * ext4 root is, creating a file after many were deleted makes ext4 skip every
 * inode deleted in the last seconds (`recently_deleted()` in the kernel's
 * inode allocator): in a `perf record -a` of the suite that was its largest
 * kernel cost, and moving the scratch to a tmpfs took system time from 88 s
 * to 57-69 s.
 *
 * So when the caller has not chosen a TMPDIR and the machine has a writable
 * tmpfs at /dev/shm that allows programs to run (tests run scripts they
 * write), the suite's TMPDIR is a directory there, when it is this user's own
 * and no one else may write to it. Otherwise it is left alone.
 */
import { accessSync, constants, lstatSync, mkdirSync, readFileSync } from 'node:fs';

export const SHM = '/dev/shm';

/** The TMPDIR the suite should use: the caller's own when set, else a tmpfs directory, else null (the system default). */
export function scratchDir(env: NodeJS.ProcessEnv = process.env, mounts: string = readMounts()): string | null {
  if (env.TMPDIR) return env.TMPDIR;
  if (!usableTmpfs(mounts, SHM)) return null;
  const dir = `${SHM}/rulec-tests`;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    accessSync(dir, constants.W_OK | constants.X_OK);
    // /dev/shm is shared: a directory of this name made by another user (or a link) is not ours.
    const st = lstatSync(dir);
    const mine = typeof process.getuid !== 'function' || st.uid === process.getuid();
    return st.isDirectory() && mine && (st.mode & 0o022) === 0 ? dir : null;
  } catch {
    return null;
  }
}

/** True when /proc/self/mounts (its text) has `point` as a tmpfs mounted read-write without noexec. */
export function usableTmpfs(mounts: string, point: string): boolean {
  // The last mount of a point is the one in effect.
  let options: string[] | null = null;
  for (const line of mounts.split('\n')) {
    const [, mountPoint, type, opts] = line.split(' ');
    if (mountPoint === point) options = type === 'tmpfs' ? (opts ?? '').split(',') : null;
  }
  return options !== null && options.includes('rw') && !options.includes('noexec');
}

function readMounts(): string {
  try {
    return readFileSync('/proc/self/mounts', 'utf8');
  } catch {
    return '';
  }
}
