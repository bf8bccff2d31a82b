/**
 * The text reporter: what a person reads in a terminal. Lint and build print
 * diagnostics like tsc (code frame, hint, related) and a summary; diff and
 * check print the review in text-diff.ts.
 */
import { num } from '../num.js';
import { formatDiagnostics, summaryLine, type SourceLines } from '../text.js';
import { textOfCheck, textOfDiff } from './text-diff.js';
import type { BuildReport, FrameLines, LintReport, Report, Reporter } from './types.js';

/** Code-frame lines from a report's FrameLines (a sparse array per file). */
export function sourceLinesOf(lines: FrameLines): SourceLines {
  const cache = new Map<string, string[]>();
  return (file) => {
    const perFile = Object.prototype.hasOwnProperty.call(lines, file) ? lines[file] : undefined;
    if (!perFile) return undefined;
    let arr = cache.get(file);
    if (!arr) {
      arr = [];
      for (const [line, text] of Object.entries(perFile)) arr[Number(line) - 1] = text;
      cache.set(file, arr);
    }
    return arr;
  };
}

function lintText(r: LintReport): string {
  const shown = r.diagnostics;
  return `${formatDiagnostics(shown, sourceLinesOf(r.lines))}${shown.length > 0 ? '\n' : ''}${summaryLine(shown)}\n`;
}

function buildText(r: BuildReport): string {
  const frames = formatDiagnostics(r.diagnostics, sourceLinesOf(r.lines));
  const s = r.summary;
  const lines = [
    `rulec build ${r.repo}`,
    `  paths        ${num(s.paths)}`,
    `  sources      ${num(s.sources)} (${Object.entries(s.layers).map(([l, n]) => `${n} ${l}`).join(', ') || 'none'})`,
    `  variants     ${num(s.variants)}${s.largest ? ` (largest ${s.largest.id}: ${num(s.largest.tokens)} tokens, ${s.largest.paths} paths)` : ''}`,
    `  attachments  ${num(s.attachments)}`,
    `  tokens       ${num(s.tokens)} unique (${r.tokenizer})`,
    `  bundle       ${r.bundle_id} ${r.digest}`,
  ];
  if (r.written) lines.push(`  written      ${r.written}`);
  else if (r.check) lines.push(r.check.stale ? `  STALE        ${r.check.out} does not hold this bundle; run rulec build` : `  up to date   ${r.check.out === '.' ? r.bundle_id : `${r.check.out}/${r.bundle_id}`}`);
  else lines.push('  not written  errors found');
  return `${frames}${r.diagnostics.length > 0 ? '\n' : ''}${lines.join('\n')}\n\n${summaryLine(r.diagnostics)}\n`;
}

export const textReporter: Reporter = {
  format: 'text',
  description: 'for a terminal: diagnostics with code frames, then a summary (default)',
  render(report: Report): string {
    switch (report.command) {
      case 'lint': return lintText(report);
      case 'build': return buildText(report);
      case 'diff': return textOfDiff(report.diff);
      case 'check': return textOfCheck(report.check, sourceLinesOf(report.lines));
    }
  },
};
