/**
 * The shape of a finding, and how one is built from its catalogue entry: a
 * leaf, so a reader that can only ever report a few codes (the bundle
 * reader, from catalogue-bundle.ts) builds its findings without loading the
 * whole catalogue. Everything else uses `diag` (diagnostic.ts), which looks
 * the entry up by code.
 */
import type { Span } from './span.js';
import type { CatalogueEntry, Severity } from './catalogue-entry.js';

export interface RelatedLocation {
  file: string;
  range: Span;
  message: string;
}

/** The one shape every finding takes, from every stage. Positions are 1-based. */
export interface Diagnostic {
  code: string;
  severity: Severity;
  /** A source id (repo-relative posix path, or managed://… / user://…); empty for findings about no file. */
  file: string;
  range: Span;
  message: string;
  hint?: string;
  related?: RelatedLocation[];
  /** An accepted finding (a conflicts.overrides entry): reported at its severity, failing nothing. */
  suppressed?: { owner: string; reason: string; expires: string };
}

export const NO_SPAN: Span = { start: { line: 1, col: 1 }, end: { line: 1, col: 1 } };

export function spanAt(line: number, col: number, endCol = col): Span {
  return { start: { line, col }, end: { line, col: endCol } };
}

export interface DiagnosticInit {
  file: string;
  range?: Span;
  message: string;
  hint?: string;
  related?: RelatedLocation[];
  severity?: Severity;
  suppressed?: Diagnostic['suppressed'];
}

/** A diagnostic of catalogue entry `entry`, with its default severity and hint unless `init` gives them. */
export function diagnosticOf(entry: CatalogueEntry, init: DiagnosticInit): Diagnostic {
  const d: Diagnostic = {
    code: entry.code,
    severity: init.severity ?? entry.severity,
    file: init.file,
    range: init.range ?? NO_SPAN,
    message: init.message,
  };
  const hint = init.hint ?? entry.hint;
  if (hint) d.hint = hint;
  if (init.related && init.related.length > 0) d.related = init.related;
  if (init.suppressed) d.suppressed = init.suppressed;
  return d;
}
