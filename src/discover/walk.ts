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
import { visibleName } from '../util/path-bytes.js';

/**
 * Every non-directory entry (files, symlinks, special files) below `root`, as sorted posix paths;
 * `ignore` names are skipped at any depth. An entry whose name is not UTF-8 is listed under its
 * decoded string and put in `undecodable` (that string → its name with the bad bytes shown `\xNN`).
 */
export function walkTree(root: string, ignore: readonly string[], undecodable?: Map<string, string>): string[] {
  const skip = new Set(ignore);
  const out: string[] = [];
  const stack: { abs: string; rel: string }[] = [{ abs: root, rel: '' }];
  for (let dir = stack.pop(); dir !== undefined; dir = stack.pop()) {
    let entries;
    try {
      entries = readdirSync(dir.abs, { withFileTypes: true });
    } catch {
      continue;
    }
    if (undecodable && entries.some((e) => e.name.includes('\uFFFD'))) noteUndecodable(dir, undecodable);
    for (const e of entries) {
      if (skip.has(e.name)) continue;
      const childRel = dir.rel === '' ? e.name : `${dir.rel}/${e.name}`;
      // Dirent types come from lstat: a symlink to a directory is a symlink here, never descended.
      // Pipes, sockets and devices are listed too, so a read can refuse them with a diagnostic.
      if (e.isDirectory()) stack.push({ abs: join(dir.abs, e.name), rel: childRel });
      else out.push(childRel);
    }
  }
  return out.sort(compareCodeUnits);
}

/** The entries of `dir` whose names are not UTF-8 (listed again as bytes: the strings lost them). */
function noteUndecodable(dir: { abs: string; rel: string }, undecodable: Map<string, string>): void {
  let raw: Buffer[];
  try {
    raw = readdirSync(dir.abs, { encoding: 'buffer' });
  } catch {
    return;
  }
  // Only a file can be named here: the walk cannot descend into a directory whose name it cannot
  // spell (README, Security: a limit of trees that are not git work trees).
  const prefix = dir.rel === '' ? '' : `${dir.rel}/`;
  for (const name of raw) {
    if (!isUtf8(name)) undecodable.set(`${prefix}${name.toString('utf8')}`, `${prefix}${visibleName(name)}`);
  }
}
