import { realpathSync } from 'node:fs';

/**
 * The real path of `path` as the kernel resolves it, so `link/..` is the
 * parent of the link's target, as `cd link/..` or `open("link/../x")` would
 * take it. Node's own realpathSync first removes every `x/..` from the text
 * (path.resolve) and only then follows links: for a path through a link it
 * names another file than the one the kernel opens. realpathSync.native asks
 * realpath(3). Throws what it throws (ENOENT, ELOOP, ENOTDIR…).
 */
export function realPath(path: string): string {
  return realpathSync.native(path);
}
