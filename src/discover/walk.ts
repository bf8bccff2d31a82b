/**
 * Sorted directory walk for trees that are not git work trees (and for the
 * managed and user directories). Like git, it never descends into a symbolic
 * link: a linked directory is listed as one entry (which reads then refuse or
 * confine), so a link out of the root or a link loop cannot pull the walk
 * along. The walk keeps an explicit stack, so depth never exhausts the stack.
 */
import { isUtf8 } from 'node:buffer';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { compareCodeUnits } from '../util/compare.js';
import { noteUndecodable, visibleName, type UndecodableNames } from '../util/path-bytes.js';

/**
 * Every non-directory entry (files, symlinks, special files) below `root`, as sorted posix paths
 * (each once); `ignore` names are skipped at any depth. A path with a name in it that is not
 * UTF-8 (of the entry, or of a directory above it) is listed under its decoded string and noted
 * in `undecodable` (path-bytes.ts): no read finds it under that string, and the caller reports
 * it. The walk descends into such a directory by its bytes, so what lies below it is reported
 * too, not passed over.
 */
export function walkTree(root: string, ignore: readonly string[], undecodable?: UndecodableNames): string[] {
  const skip = new Set(ignore);
  const out: string[] = [];
  // `abs` as bytes once a directory on the way has a name that is not UTF-8; `shown` is then `rel`
  // with the bad bytes escaped.
  const stack: { abs: string | Buffer; rel: string; shown: string | null }[] = [{ abs: root, rel: '', shown: null }];
  for (let dir = stack.pop(); dir !== undefined; dir = stack.pop()) {
    for (const e of listDir(dir.abs)) {
      if (skip.has(e.name)) continue;
      const childRel = dir.rel === '' ? e.name : `${dir.rel}/${e.name}`;
      const visible = e.bytes === null ? e.name : visibleName(e.bytes);
      const shown = dir.shown === null && e.bytes === null ? null : dir.rel === '' ? visible : `${dir.shown ?? dir.rel}/${visible}`;
      // Dirent types come from lstat: a symlink to a directory is a symlink here, never descended.
      // Pipes, sockets and devices are listed too, so a read can refuse them with a diagnostic.
      if (e.isDirectory) {
        const abs = typeof dir.abs === 'string' && e.bytes === null ? join(dir.abs, e.name) : Buffer.concat([Buffer.from(dir.abs), SLASH, e.bytes ?? Buffer.from(e.name)]);
        stack.push({ abs, rel: childRel, shown });
        continue;
      }
      out.push(childRel);
      if (shown !== null && undecodable) noteUndecodable(undecodable, childRel, shown);
    }
  }
  // Names that decode alike are listed once (each is in `undecodable`).
  return out.sort(compareCodeUnits).filter((p, i, all) => i === 0 || all[i - 1] !== p);
}

const SLASH = Buffer.from('/');

interface Listed { name: string; bytes: Buffer | null; isDirectory: boolean }

/**
 * A directory's entries: `bytes` is the name's bytes when they are not UTF-8 (its decoded `name`
 * lost them), else null. Listed as strings, and again as bytes when a name decodes with U+FFFD, the
 * path is bytes, or the string listing fails (a file system that reports no entry types makes node
 * lstat each entry by its decoded name, which a name that is not UTF-8 makes fail).
 */
function listDir(abs: string | Buffer): Listed[] {
  if (typeof abs === 'string') {
    try {
      const entries = readdirSync(abs, { withFileTypes: true });
      if (!entries.some((e) => e.name.includes('\uFFFD'))) return entries.map((e) => ({ name: e.name, bytes: null, isDirectory: e.isDirectory() }));
    } catch {
      // listed again as bytes below
    }
  }
  try {
    return readdirSync(abs, { withFileTypes: true, encoding: 'buffer' }).map((e) => {
      const bytes = e.name as unknown as Buffer;
      return { name: bytes.toString('utf8'), bytes: isUtf8(bytes) ? null : bytes, isDirectory: e.isDirectory() };
    });
  } catch {
    return [];
  }
}
