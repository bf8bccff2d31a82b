/**
 * Diagnostics as text, like tsc: `path:line:col - error RC3101: message`, a
 * code frame with carets, `hint:`, related locations, then a summary line.
 * Pure: returns a string.
 */
import { countBySeverity, type Diagnostic } from '../diagnostics/diagnostic.js';

export type SourceLines = (file: string) => readonly string[] | undefined;

export function formatDiagnostic(d: Diagnostic, lines: SourceLines): string {
  const where = d.file === '' ? 'rulec' : `${d.file}:${d.range.start.line}:${d.range.start.col}`;
  const out = [`${where} - ${d.severity} ${d.code}: ${d.message}`];
  const src = d.file === '' ? undefined : lines(d.file);
  const text = src?.[d.range.start.line - 1];
  if (text !== undefined) {
    const num = String(d.range.start.line);
    const shown = text.length > 160 ? `${text.slice(0, 157)}...` : text;
    const start = Math.min(d.range.start.col - 1, shown.length);
    const sameLine = d.range.end.line === d.range.start.line;
    const width = Math.max(1, Math.min(sameLine ? d.range.end.col - d.range.start.col : shown.length - start, shown.length - start));
    out.push(`  ${num} | ${shown.replace(/\t/g, ' ')}`, `  ${' '.repeat(num.length)} | ${' '.repeat(start)}${'^'.repeat(width)}`);
  }
  if (d.hint) out.push(`  hint: ${d.hint}`);
  for (const r of d.related ?? []) out.push(`  related: ${r.file}:${r.range.start.line}:${r.range.start.col} - ${r.message}`);
  return out.join('\n');
}

export function formatDiagnostics(list: readonly Diagnostic[], lines: SourceLines): string {
  if (list.length === 0) return '';
  return `${list.map((d) => formatDiagnostic(d, lines)).join('\n\n')}\n`;
}

export function summaryLine(list: readonly Diagnostic[]): string {
  const c = countBySeverity(list);
  const files = new Set(list.filter((d) => d.file !== '').map((d) => d.file)).size;
  const part = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (list.length === 0) return 'No problems found.';
  return `Found ${part(c.error, 'error')}, ${part(c.warning, 'warning')}, ${part(c.info, 'info')}${files > 0 ? ` in ${part(files, 'file')}` : ''}.`;
}

/** Group digits: 12345 → "12,345" (fixed, locale-independent). */
export function num(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
