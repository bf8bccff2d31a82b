/**
 * Read a file only when it is a regular file reached without a symbolic link
 * in its last component: opened with O_NOFOLLOW (and O_NONBLOCK, so a FIFO
 * cannot stall the reader), then checked with fstat on the open descriptor.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

export type RegularRead = { ok: true; bytes: Buffer } | { ok: false; why: 'missing' | 'not-regular' | 'too-large' | 'unreadable'; detail?: string };

export function readRegularFile(path: string, maxBytes = Number.MAX_SAFE_INTEGER): RegularRead {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { ok: false, why: 'missing' };
    if (code === 'ELOOP') return { ok: false, why: 'not-regular', detail: 'a symbolic link' };
    return { ok: false, why: 'unreadable', detail: code ?? 'error' };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { ok: false, why: 'not-regular', detail: st.isDirectory() ? 'a directory' : 'a special file' };
    if (st.size > maxBytes) return { ok: false, why: 'too-large', detail: String(st.size) };
    const bytes = Buffer.allocUnsafe(st.size);
    let at = 0;
    while (at < st.size) {
      const n = readSync(fd, bytes, at, st.size - at, null);
      if (n === 0) break;
      at += n;
    }
    // A file that grew while read is read to its stat size; one that shrank is refused by its digest.
    return { ok: true, bytes: at === st.size ? bytes : bytes.subarray(0, at) };
  } catch (e) {
    return { ok: false, why: 'unreadable', detail: (e as NodeJS.ErrnoException).code ?? 'error' };
  } finally {
    closeSync(fd);
  }
}
