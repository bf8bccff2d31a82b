/**
 * rulec's own output is never an input. A build may write its bundle anywhere
 * (`--out`), including inside a rules folder (`.claude/rules/out`) or the
 * managed directory, and a later `lint`, `explain` or build without that flag
 * cannot know where. So output is recognised two ways: by the output
 * directory of this run, and by its shape wherever it lies — a directory named
 * like a bundle id (`b-` + 16 hex) or an interrupted build's temp directory
 * (`.tmp-b-…`), whose files rulec wrote itself.
 */
import { isAbsolute, relative, resolve as resolvePath, sep } from 'node:path';
import { realPath } from '../util/real-path.js';

const BUNDLE_DIR = /(?:^|\/)(?:b-[0-9a-f]{16}|\.tmp-b-[0-9a-f]{16}-[^/]*)\//;

/** True when a root-relative posix path lies inside a bundle (or a bundle being written). */
export function isBundleOutput(rel: string): boolean {
  return rel.includes('b-') && BUNDLE_DIR.test(rel);
}

/** The output directory as a prefix relative to `rootReal` (with a trailing `/`), when it lies inside it. */
export function outputPrefix(rootReal: string, outDir: string | undefined): string | null {
  if (!outDir) return null;
  let real: string;
  try {
    real = realPath(outDir);
  } catch {
    real = resolvePath(outDir);
  }
  const rel = relative(rootReal, real);
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return null;
  return `${rel.split(sep).join('/')}/`;
}
