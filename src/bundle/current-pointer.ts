/**
 * `<out>/current`: the pointer beside a bundles directory's bundles, holding
 * the id of the one last built there (layout.ts names it).
 */
import { lstatSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { failBundle } from './bundle-error.js';
import { CURRENT_POINTER, parseCurrentPointer } from './layout.js';
import { readRegularFile } from './read-regular.js';

/**
 * The bundle directory a `current` pointer names (a bundles directory's, or the pointer file given
 * itself: `bundles/current`), or null when there is no pointer. The pointer must be a regular file
 * holding one bundle id, so it can only ever name a directory beside it.
 */
export function currentBundleDir(path: string): string | null {
  const bundlesDir = isPointerFile(path) ? dirname(path) : path;
  const r = readRegularFile(join(bundlesDir, CURRENT_POINTER), 4096);
  if (!r.ok && r.why === 'missing') return null;
  const id = r.ok ? parseCurrentPointer(r.bytes.toString('utf8')) : null;
  if (id === null) failBundle('RC7008', CURRENT_POINTER, `${join(bundlesDir, CURRENT_POINTER)} does not hold a bundle id${r.ok ? '' : ` (${r.detail ?? r.why})`}`);
  return join(bundlesDir, id);
}

/** Whether `path` is a `current` pointer itself: a regular file of that name (a link to one is no pointer). */
function isPointerFile(path: string): boolean {
  try {
    return basename(path) === CURRENT_POINTER && lstatSync(path).isFile();
  } catch {
    return false;
  }
}
