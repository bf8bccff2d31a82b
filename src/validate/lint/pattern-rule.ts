/**
 * A lint rule made of patterns: each match of a pattern's expression in a
 * file is one finding, at the match, with the pattern's `what` and the match
 * shown. The phrase catalogues (dangerous commands, prompt injection, fence
 * forgery) differ only in which matches count, where a match ends and how it
 * is shown: that is what a catalogue passes here.
 */
import type { LintInput, LintRule } from './types.js';
import { diag, type Diagnostic } from '../../diagnostics/diagnostic.js';
import { matchesOf, spanOf, textIndexOf, type TextIndex } from './text-index.js';

export interface Pattern {
  re: RegExp;
  what: string;
}

export interface PatternReading<P extends Pattern> {
  /** Where the finding ends (default: where the match does). */
  end?: (m: RegExpExecArray) => number;
  /** Whether the match is a finding (default: every match is). */
  keep?: (p: P, m: RegExpExecArray, index: TextIndex, end: number) => boolean;
  /** The match as the message shows it, after `what: `. */
  shown: (m: RegExpExecArray) => string;
}

/** One rule per `[code, name, patterns]`, each read the catalogue's way. */
export function patternRules<P extends Pattern>(reading: PatternReading<P>, rules: readonly (readonly [string, string, readonly P[]])[]): LintRule[] {
  return rules.map(([code, name, patterns]) => ({ code, name, check: (input: LintInput) => findings(code, patterns, reading, input) }));
}

function findings<P extends Pattern>(code: string, patterns: readonly P[], reading: PatternReading<P>, { file, doc }: LintInput): Diagnostic[] {
  const index = textIndexOf(doc);
  const out: Diagnostic[] = [];
  for (const p of patterns) {
    for (const m of matchesOf(p.re, doc.text)) {
      const end = reading.end ? reading.end(m) : m.index + m[0].length;
      if (reading.keep && !reading.keep(p, m, index, end)) continue;
      out.push(diag(code, { file: file.id, range: spanOf(index, m.index, end), message: `${p.what}: ${reading.shown(m)}` }));
    }
  }
  return out;
}
