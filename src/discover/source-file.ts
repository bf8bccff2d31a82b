/**
 * A discovered file as the pipeline holds it (SourceFile), and the finding
 * for one whose name cannot be read: shared by the repository's walk
 * (discover.ts), the layers outside it (outer-layers.ts) and imports.
 */
import type { FormatName, Layer, Root, SourceFile } from '../types.js';
import { diag, type Diagnostic } from '../diagnostics/diagnostic.js';
import { sourceId } from '../util/source-id.js';
import { compareCodeUnits } from '../util/compare.js';

/** A SourceFile read from `root` at `rel`, whose real path below the root is `realRel`. */
export function source(root: Root, rel: string, format: FormatName, layer: Layer, scope: string,
  bytes: Uint8Array, realRel: string, tracked: boolean): SourceFile {
  const f: SourceFile = { id: sourceId(root, rel), rel, root, format, layer, scope, bytes, tracked };
  if (realRel !== rel) f.linkTarget = sourceId(root, realRel);
  return f;
}

/**
 * RC1001 for each name listed under one path string that is not UTF-8 (`shown`: escaped, in the
 * root's terms): an agent listing its directory loads that file; rulec cannot open it by name. The
 * read of the string may still have found a file — one whose name really is that string — but
 * never these.
 */
export function undecodableNames(shown: Iterable<string> | undefined): Diagnostic[] {
  return [...(shown ?? [])].sort(compareCodeUnits).map((name) => diag('RC1001', { file: name, message: `its name is not UTF-8 (the bytes that are not are shown as \\xNN): an agent that lists the directory loads it, but rulec cannot read it by name, so nothing checks what it says; rename it` }));
}
