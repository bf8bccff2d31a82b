/**
 * Facts every reporter derives the same way from any report: its diagnostics,
 * its conflict events, its verdict and headline. One definition here keeps the
 * six formats telling the same story.
 */
import { diagnosticOf } from '../../conflicts/events.js';
import { countBySeverity, sortDiagnostics, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { BundleDiff } from '../../diff/bundle-diff.js';
import type { CheckReport } from '../../diff/check-model.js';
import { num } from '../num.js';
import type { FrameLines, Report } from './types.js';

/** The diagnostics a report carries; for a diff, one per conflict event it introduces. */
export function diagnosticsOf(report: Report): Diagnostic[] {
  switch (report.command) {
    case 'lint':
    case 'build':
      return report.diagnostics;
    case 'check':
      return report.check.diagnostics;
    case 'diff':
      return sortDiagnostics(report.diff.conflicts.introduced.map(diagnosticOf));
  }
}

export function reportLinesOf(report: Report): FrameLines {
  return report.command === 'diff' ? {} : report.lines;
}

export type VerdictTone = 'pass' | 'fail' | 'info';

export interface Verdict {
  tone: VerdictTone;
  /** One line, no trailing period: "Build failed: 2 errors", "No rule file changed". */
  title: string;
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

export function countsLine(list: readonly Diagnostic[]): string {
  const c = countBySeverity(list);
  return `${plural(c.error, 'error')}, ${plural(c.warning, 'warning')}, ${plural(c.info, 'info')}`;
}

export function verdictOf(report: Report): Verdict {
  switch (report.command) {
    case 'lint': {
      const errors = countBySeverity(report.diagnostics).error;
      return errors > 0 ? { tone: 'fail', title: `Lint failed: ${plural(errors, 'error')}` } : { tone: 'pass', title: 'Lint passed: no errors' };
    }
    case 'build': {
      const errors = countBySeverity(report.diagnostics).error;
      if (errors > 0) return { tone: 'fail', title: `Build failed: ${plural(errors, 'error')}, nothing written` };
      if (report.check?.stale) return { tone: 'fail', title: `Bundle is stale: ${report.check.out} does not hold ${report.bundle_id}` };
      if (report.check) return { tone: 'pass', title: `Bundle ${report.bundle_id} is up to date` };
      return { tone: 'pass', title: `Built bundle ${report.bundle_id}` };
    }
    case 'check':
      return checkVerdict(report.check);
    case 'diff':
      return diffVerdict(report.diff);
  }
}

export function checkVerdict(c: CheckReport): Verdict {
  if (c.skipped) return { tone: 'pass', title: 'No rule file changed: nothing to check' };
  if (c.verdict === 'fail') return { tone: 'fail', title: `Check failed: ${c.reasons[0] ?? 'see the reasons below'}` };
  return { tone: 'pass', title: `Check passed${c.risk ? ` (risk: ${c.risk.level})` : ''}` };
}

export function diffVerdict(d: BundleDiff): Verdict {
  if (d.identical) return { tone: 'info', title: 'The bundles are identical' };
  return { tone: 'info', title: `Proposed bump: ${d.semver.bump}; ${num(d.summary.affected)} of ${num(d.summary.total)} ${d.summary.unit} change` };
}

/** Percentage with one decimal, fixed: 12.3%. Zero of zero is 0.0%. */
export function percent(part: number, whole: number): string {
  return `${whole === 0 ? '0.0' : ((part * 100) / whole).toFixed(1)}%`;
}

/** Signed, digit-grouped delta: +1,200, -3, ±0. */
export function signed(n: number): string {
  return n > 0 ? `+${num(n)}` : n < 0 ? `-${num(-n)}` : '±0';
}

export { plural };
