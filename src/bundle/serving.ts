/**
 * Which variant serves a path: the one answer, for a manifest in memory and
 * for a bundle read part by part. A path is served by its own directory's
 * entry in the path index, else its nearest indexed ancestor ('' always is).
 */
import { dirnameOf } from '../util/posix-path.js';
import type { ManifestV1 } from './model.js';

/**
 * The index directory whose variant serves `path`: the path itself when it is
 * an indexed directory, else its nearest indexed ancestor ('' is always indexed).
 */
export function servingDir(index: ManifestV1['index'], path: string): string {
  return servingDirBy((d) => Object.prototype.hasOwnProperty.call(index, d), path);
}

/** `servingDir` over an index known only through `has` (a bundle read part by part). */
export function servingDirBy(has: (dir: string) => boolean, path: string): string {
  let dir = has(path) ? path : dirnameOf(path);
  while (dir !== '' && !has(dir)) dir = dirnameOf(dir);
  return dir;
}

/** The id of the variant that serves `path` (repo-relative posix, '' for the root). */
export function variantFor(index: ManifestV1['index'], path: string): string {
  const dir = servingDir(index, path);
  const id = Object.prototype.hasOwnProperty.call(index, dir) ? index[dir] : undefined;
  if (id === undefined) throw new RangeError('bundle index has no root entry');
  return id;
}

/** A caller's path in the index's spelling: posix separators, no `./`, no trailing `/`. */
export function normaliseBundlePath(path: string): string {
  return path.replace(/\\/g, '/').replace(/^(\.\/)+/, '').replace(/\/+$/, '').replace(/^\.$/, '');
}
