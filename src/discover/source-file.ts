/**
 * A discovered file as the pipeline holds it (SourceFile), and the finding
 * for one whose name cannot be read: shared by the repository's walk
 * (discover.ts), the layers outside it (outer-layers.ts) and imports.
 */
import type { FormatName, Layer, Root, SourceFile } from '../types.js';
import { diag, type Diagnostic } from '../diagnostics/diagnostic.js';
import type { ReadOutcome } from '../confined/read-confined.js';
import { sourceId } from '../util/source-id.js';

/** A SourceFile read from `root` at `rel`, whose real path below the root is `realRel`. */
export function source(root: Root, rel: string, format: FormatName, layer: Layer, scope: string,
  bytes: Uint8Array, realRel: string, tracked: boolean): SourceFile {
  const f: SourceFile = { id: sourceId(root, rel), rel, root, format, layer, scope, bytes, tracked };
  if (realRel !== rel) f.linkTarget = sourceId(root, realRel);
  return f;
}

/** RC1001 for an instruction file whose name is not UTF-8: an agent listing its directory loads it; rulec cannot open it by name. */
function undecodableName(shown: string): Diagnostic {
  return diag('RC1001', { file: shown, message: `its name is not UTF-8 (the bytes that are not are shown as \\xNN): an agent that lists the directory loads it, but rulec cannot read it by name, so nothing checks what it says; rename it` });
}

/**
 * What a read that found no file to use reports: its own finding (a link out of the root, a file
 * too large), RC1001 when it found nothing because the name is not UTF-8 (`shown`: the name as the
 * walk or git listed it, bad bytes escaped), else nothing (a file that is simply gone).
 */
export function failedRead(read: Exclude<ReadOutcome, { ok: true }>, shown: string | undefined): Diagnostic | null {
  if (!read.missing) return read.diagnostic;
  return shown === undefined ? null : undecodableName(shown);
}
