import { compareCodeUnits } from '../util/compare.js';
import { catalogueEntry } from './catalogue.js';
import { diagnosticOf, type Diagnostic, type DiagnosticInit } from './diagnostic-shape.js';
import type { Severity } from './catalogue-entry.js';

export type { Severity } from './catalogue-entry.js';
export { NO_SPAN, spanAt, type Diagnostic, type DiagnosticInit, type RelatedLocation } from './diagnostic-shape.js';

/** Build a diagnostic with the catalogue's default severity and hint for `code`. */
export function diag(code: string, init: DiagnosticInit): Diagnostic {
  return diagnosticOf(catalogueEntry(code), init);
}

/** The order diagnostics are listed in: file, line, col, code, message. Zero means an exact duplicate. */
export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  return compareCodeUnits(a.file, b.file) ||
    a.range.start.line - b.range.start.line ||
    a.range.start.col - b.range.start.col ||
    compareCodeUnits(a.code, b.code) ||
    compareCodeUnits(a.message, b.message);
}

/** Sort by (file, line, col, code, message) and drop exact duplicates. */
export function sortDiagnostics(list: readonly Diagnostic[]): Diagnostic[] {
  const sorted = [...list].sort(compareDiagnostics);
  return sorted.filter((d, i) => i === 0 || compareDiagnostics(sorted[i - 1]!, d) !== 0);
}

/** Findings per severity; an accepted (suppressed) finding counts as none: it is listed, and fails nothing. */
export function countBySeverity(list: readonly Diagnostic[]): Record<Severity, number> {
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const d of list) if (d.suppressed === undefined) counts[d.severity]++;
  return counts;
}

/** Whether the findings fail a build: an error that no suppression accepts. */
export function hasErrors(list: readonly Diagnostic[]): boolean {
  return list.some((d) => d.severity === 'error' && d.suppressed === undefined);
}
