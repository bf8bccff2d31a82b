/**
 * Is the bundle a memo names still where the build left it, unchanged? A
 * replayed build must leave `<out>` as a compiling build would, and that one
 * rewrites a bundle that no longer verifies. Verifying every byte of a
 * 20 MiB bundle costs most of a replay, so the memo keeps a stamp instead —
 * each file's path, size and modification time, as git's index keeps them —
 * and the replay checks that the manifest still hashes to the recorded digest
 * (openBundle: its entries named and counted as the manifest says) and that
 * every file still has its stamp. Any change made through the file system
 * moves a time; a mismatch only means compiling again. `build --check` and
 * `--no-cache` still verify every byte.
 */
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { openBundle } from '../bundle/open-bundle.js';
import { walkTree } from '../discover/walk.js';

/** [path in the bundle, size, mtime in ms] of each file, sorted by path. */
export type BundleStamp = [string, number, number][];

export function stampBundle(dir: string): BundleStamp | null {
  try {
    return walkTree(dir, []).map((rel) => {
      const st = lstatSync(join(dir, rel));
      return [rel, st.size, st.mtimeMs] as [string, number, number];
    });
  } catch {
    return null;
  }
}

export function bundleUnchanged(dir: string, digest: string, stamp: BundleStamp): boolean {
  try {
    openBundle(dir, { expectDigest: digest });
    const now = stampBundle(dir);
    return now !== null && now.length === stamp.length && now.every(([rel, size, mtime], i) => {
      const was = stamp[i];
      return was !== undefined && was[0] === rel && was[1] === size && was[2] === mtime;
    });
  } catch {
    return false;
  }
}
