/**
 * Diagnostics as text, like tsc: `path:line:col - error RC3101: message`, a
 * code frame with carets, `hint:`, related locations, then a summary line.
 * Pure: returns a string. Every field passes through `redact` (detected
 * secrets masked) and `oneLine` (control characters shown escaped), and the
 * code frame masks secrets by position, so neither a credential nor a
 * terminal escape sequence from a file reaches the reader.
 */
import { countBySeverity, type Diagnostic } from '../diagnostics/diagnostic.js';
import { maskSourceLine, NO_REDACTIONS, redact, type Redactions } from '../diagnostics/redact.js';
import { codeFrame } from './code-frame.js';
import { oneLine } from './escape.js';

export type SourceLines = (file: string) => readonly string[] | undefined;

export function formatDiagnostic(d: Diagnostic, lines: SourceLines, redactions: Redactions = NO_REDACTIONS): string {
  const safe = (s: string): string => oneLine(redact(s, redactions));
  const where = d.file === '' ? 'rulec' : `${safe(d.file)}:${d.range.start.line}:${d.range.start.col}`;
  const out = [`${where} - ${d.severity} ${d.code}: ${safe(d.message)}`];
  const src = d.file === '' ? undefined : lines(d.file);
  const text = src?.[d.range.start.line - 1];
  if (text !== undefined) {
    const start = d.range.start.col - 1;
    const end = d.range.end.line === d.range.start.line ? d.range.end.col - 1 : text.length;
    out.push(...codeFrame(text, d.range.start.line, { start, end }, (slice, offset) =>
      maskSourceLine(d.file, d.range.start.line, slice, redactions, offset)));
  }
  if (d.hint) out.push(`  hint: ${safe(d.hint)}`);
  for (const r of d.related ?? []) out.push(`  related: ${safe(r.file)}:${r.range.start.line}:${r.range.start.col} - ${safe(r.message)}`);
  return out.join('\n');
}

export function formatDiagnostics(list: readonly Diagnostic[], lines: SourceLines, redactions: Redactions = NO_REDACTIONS): string {
  if (list.length === 0) return '';
  return `${list.map((d) => formatDiagnostic(d, lines, redactions)).join('\n\n')}\n`;
}

export function summaryLine(list: readonly Diagnostic[]): string {
  const c = countBySeverity(list);
  const files = new Set(list.filter((d) => d.file !== '').map((d) => d.file)).size;
  const part = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (list.length === 0) return 'No problems found.';
  return `Found ${part(c.error, 'error')}, ${part(c.warning, 'warning')}, ${part(c.info, 'info')}${files > 0 ? ` in ${part(files, 'file')}` : ''}.`;
}
