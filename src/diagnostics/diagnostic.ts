import type { Span } from '../types.js';
import { compareCodeUnits } from '../util/compare.js';
import { catalogueEntry } from './catalogue.js';

export type Severity = 'error' | 'warning' | 'info';

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
}

/** Build a diagnostic with the catalogue's default severity and hint for `code`. */
export function diag(code: string, init: DiagnosticInit): Diagnostic {
  const entry = catalogueEntry(code);
  const d: Diagnostic = {
    code,
    severity: init.severity ?? entry.severity,
    file: init.file,
    range: init.range ?? NO_SPAN,
    message: init.message,
  };
  const hint = init.hint ?? entry.hint;
  if (hint) d.hint = hint;
  if (init.related && init.related.length > 0) d.related = init.related;
  return d;
}

/** Sort by (file, line, col, code, message) and drop exact duplicates. */
export function sortDiagnostics(list: readonly Diagnostic[]): Diagnostic[] {
  const sorted = [...list].sort(
    (a, b) =>
      compareCodeUnits(a.file, b.file) ||
      a.range.start.line - b.range.start.line ||
      a.range.start.col - b.range.start.col ||
      compareCodeUnits(a.code, b.code) ||
      compareCodeUnits(a.message, b.message),
  );
  return sorted.filter((d, i) => {
    const p = sorted[i - 1];
    return !p || p.file !== d.file || p.code !== d.code || p.message !== d.message ||
      p.range.start.line !== d.range.start.line || p.range.start.col !== d.range.start.col;
  });
}

export function countBySeverity(list: readonly Diagnostic[]): Record<Severity, number> {
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const d of list) counts[d.severity]++;
  return counts;
}

export function hasErrors(list: readonly Diagnostic[]): boolean {
  return list.some((d) => d.severity === 'error');
}
