/** Small text helpers shared by topic extractors: negation scope, stemming, code-span tests. */
import type { Clause } from '../statements.js';

const NEGATION = /\b(?:not|never|no|don't|dont|do not|must not|mustn't|should not|shouldn't|cannot|can't|avoid|instead of|rather than|without|nor|forbid(?:den)?|disallow(?:ed)?|prohibit(?:ed)?)\b/gi;

/** Offset of the first negation in each clause's prose (Infinity when none), computed once per clause. */
const firstNegation = new WeakMap<Clause, number>();

/** True when a negation word precedes `at` in the clause's prose (negation runs to the clause end). */
export function negatedAt(clause: Clause, at: number): boolean {
  let first = firstNegation.get(clause);
  if (first === undefined) {
    NEGATION.lastIndex = 0;
    const m = NEGATION.exec(clause.prose);
    NEGATION.lastIndex = 0;
    firstNegation.set(clause, (first = m ? m.index : Infinity));
  }
  return first < at;
}

/** The code span containing offset `at`, if any (spans are in order: binary search). */
export function codeAt(clause: Clause, at: number): Clause['code'][number] | undefined {
  let lo = 0;
  let hi = clause.code.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((clause.code[mid] as Clause['code'][number]).end <= at) lo = mid + 1;
    else hi = mid;
  }
  const c = clause.code[lo];
  return c && c.start <= at && at < c.end ? c : undefined;
}

/**
 * `re` (which ends in `$`) tested against the end of `text` with trailing
 * whitespace removed: the words just before a position, without scanning the
 * whole prefix for each position (a clause with a thousand commands would be
 * quadratic). `re` must only match at most `window - 1` code units.
 */
export function endsWith(text: string, re: RegExp, window = 32): boolean {
  const t = text.trimEnd();
  return re.test(t.length <= window ? t : t.slice(t.length - window));
}

/** A deliberately small stemmer: enough to equate "logging"/"logs"/"log" and "bodies"/"body". */
export function stem(word: string): string {
  let w = word.toLowerCase();
  if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 4 && /(?:ss|x|ch|sh)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us')) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
  if (/([bdfgklmnprtz])\1$/.test(w)) w = w.slice(0, -1);
  return w;
}

/** Which language a style clause talks about, so "YAML uses 2 spaces" is not compared with "Go uses tabs". */
const LANGS: [RegExp, string][] = [
  [/\bpython\b|\.py\b/i, 'python'], [/\bgo(?:lang)?\b(?!\s+(?:to|through|ahead|back|over))|\.go\b/i, 'go'], [/\brust\b|\.rs\b/i, 'rust'],
  [/\bya?ml\b/i, 'yaml'], [/\bjson\b/i, 'json'], [/\bmarkdown\b|\.md\b/i, 'markdown'], [/\bmakefiles?\b/i, 'makefile'],
  [/\bc#|\bcsharp\b|\.cs\b/i, 'csharp'], [/\bjava\b/i, 'java'], [/\bzig\b/i, 'zig'], [/\bswift\b/i, 'swift'], [/\bshell\b|\bbash\b|\.sh\b/i, 'shell'],
  [/\bpowershell\b|\.ps1\b/i, 'powershell'], [/\bc\+\+|\bcpp\b/i, 'cpp'], [/\bcss\b|\bscss\b/i, 'css'], [/\bhtml\b/i, 'html'],
];

export function languageOf(clause: Clause): string {
  for (const [re, name] of LANGS) if (re.test(clause.text)) return name;
  return '';
}
