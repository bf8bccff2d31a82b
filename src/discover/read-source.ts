/**
 * Read one file under a root without ever leaving it: a symlink is resolved
 * and must land inside the same root; oversize files are refused unread.
 */
import { lstatSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { diag, type Diagnostic } from '../diagnostics/diagnostic.js';
import { toPosix } from '../util/posix-path.js';

export type ReadOutcome =
  | { ok: true; bytes: Uint8Array; linkTarget?: string }
  | { ok: false; missing: true }
  | { ok: false; missing: false; diagnostic: Diagnostic };

/**
 * @param rootReal realpath of the root
 * @param rel posix path relative to the root
 * @param id the id used in diagnostics
 */
export function readUnderRoot(rootReal: string, rel: string, id: string, maxBytes: number, idPrefix = ''): ReadOutcome {
  const abs = join(rootReal, ...rel.split('/'));
  let linkTarget: string | undefined;
  let real = abs;
  try {
    if (lstatSync(abs).isSymbolicLink()) {
      try {
        real = realpathSync(abs);
      } catch {
        return { ok: false, missing: false, diagnostic: diag('RC1005', { file: id, message: 'symbolic link points to a file that does not exist' }) };
      }
      const within = relative(rootReal, real);
      if (within === '' || within.startsWith(`..${sep}`) || within === '..' || /^[A-Za-z]:/.test(within) || within.startsWith(sep)) {
        return { ok: false, missing: false, diagnostic: diag('RC1002', { file: id, message: 'symbolic link leads outside its root; not loaded' }) };
      }
      linkTarget = idPrefix + toPosix(within);
    }
    const st = statSync(real);
    if (!st.isFile()) return { ok: false, missing: true };
    if (st.size > maxBytes) {
      return { ok: false, missing: false, diagnostic: diag('RC1006', { file: id, message: `file is ${st.size} bytes, over the ${maxBytes}-byte read limit; not loaded` }) };
    }
    const bytes = readFileSync(real);
    return linkTarget === undefined ? { ok: true, bytes } : { ok: true, bytes, linkTarget };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { ok: false, missing: true };
    return { ok: false, missing: false, diagnostic: diag('RC1001', { file: id, message: `cannot read file (${code ?? 'error'})` }) };
  }
}
