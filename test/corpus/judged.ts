/**
 * The judged corpus: what rulec reports on each real-world repository, and
 * the verdict a reader gave each finding (test/corpus/reviews/<entry>.json).
 *
 * A finding is every warning and error, and every conflict event at any
 * severity (RC31xx, RC32xx): the claims a maintainer reads. Its key names the
 * code and every location it cites, so a finding that moves to other lines is
 * a new finding and must be judged again:
 *   `RC3101 AGENTS.md:133 ui-v2/AGENTS.md:63`
 *
 * Verdicts: `true` (the maintainer would agree and act), `noise` (true, but
 * not worth their time at this severity), `false` (wrong). `expected` links a
 * verdict to the reviewed `expected` item it finds (for recall).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';

export type Verdict = 'true' | 'noise' | 'false';

export interface Judgement {
  finding: string;
  verdict: Verdict;
  /** Index of the `expected` item this finding reports, when it is one. */
  expected?: number;
  why: string;
}

export interface ExpectedItem {
  kind: 'contradiction' | 'override' | 'duplicate';
  object: string;
  sides: { file: string; line: number; text: string }[];
  confidence?: 'medium' | 'low';
}

export interface Review {
  entry: string;
  commit: string;
  expected: ExpectedItem[];
  verdicts?: Judgement[];
  notes: string;
}

export const REVIEWS = join(import.meta.dirname, 'reviews');

export function reviewOf(entry: string): Review {
  return JSON.parse(readFileSync(join(REVIEWS, `${entry}.json`), 'utf8')) as Review;
}

export interface Finding {
  key: string;
  code: string;
  severity: Diagnostic['severity'];
  message: string;
}

const at = (file: string, line: number): string => `${file}:${line}`;

/** The findings of one build, by key (one key may stand for several identical diagnostics). */
export function findingsOf(diagnostics: readonly Diagnostic[]): Map<string, Finding> {
  const out = new Map<string, Finding>();
  for (const d of diagnostics) {
    if (d.severity === 'info' && !/^RC3[12]/.test(d.code)) continue;
    const related = (d.related ?? []).map((r) => at(r.file, r.range.start.line));
    const key = [d.code, at(d.file, d.range.start.line), ...[...new Set(related)].sort()].join(' ');
    if (!out.has(key)) out.set(key, { key, code: d.code, severity: d.severity, message: d.message });
  }
  return out;
}

/** The family a finding is scored in: conflict events by kind, the rest by severity. */
export function classOf(f: Pick<Finding, 'code' | 'severity'>): string {
  if (/^RC3[12]/.test(f.code)) return `conflict ${f.severity}`;
  return f.severity === 'info' ? 'info' : 'warning/error';
}
