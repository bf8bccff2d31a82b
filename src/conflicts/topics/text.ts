/** Small text helpers shared by topic extractors: negation scope, stemming, code-span tests. */
import type { Clause } from '../statements.js';

const NEGATION = /\b(?:not|never|no|don't|dont|do not|must not|mustn't|should not|shouldn't|cannot|can't|avoid|instead of|rather than|without|nor|forbid(?:den)?|disallow(?:ed)?|prohibit(?:ed)?)\b/gi;

/**
 * Negations that do not forbid: "ensure no build breaks" (a goal), "does not
 * require pnpm" / "no need to use X" (optional, not forbidden).
 */
const NOT_FORBIDDING = /^(?:no\s+(?:need\b|longer\b)|not\s+(?:require|need|necessar|mandator|only)|n't\s+(?:require|need))/i;
const GOAL_BEFORE = /\b(?:ensure|ensures|make sure|verify|check|so|so that|there (?:are|is))\s+$/i;

/** Each negation of a clause's prose: where it is, and whether it forbids. Computed once per clause. */
const negations = new WeakMap<Clause, { at: number; forbids: boolean }[]>();

function negationsOf(clause: Clause): { at: number; forbids: boolean }[] {
  let list = negations.get(clause);
  if (!list) {
    list = [];
    for (const m of clause.prose.matchAll(NEGATION)) {
      const tail = clause.prose.slice(m.index, m.index + 40);
      const optional = NOT_FORBIDDING.test(tail.replace(/^(?:do|does|did)\s+/i, '')) || NOT_FORBIDDING.test(tail.replace(/^(?:do|does)/i, ''));
      const goal = /^no\b/i.test(m[0]) && GOAL_BEFORE.test(clause.prose.slice(Math.max(0, m.index - 24), m.index));
      if (!goal) list.push({ at: m.index, forbids: !optional });
    }
    negations.set(clause, list);
  }
  return list;
}

/**
 * What the clause says about the thing at `at`, decided by the nearest negation before it:
 * 'forbid' ("never use npm"), 'optional' ("does not require pnpm", "no need to run X"),
 * or 'prescribe' (no negation before it).
 */
export function polarityAt(clause: Clause, at: number): 'forbid' | 'optional' | 'prescribe' {
  const list = negationsOf(clause);
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((list[mid] as { at: number }).at < at) lo = mid + 1;
    else hi = mid;
  }
  const nearest = list[lo - 1];
  return nearest === undefined ? 'prescribe' : nearest.forbids ? 'forbid' : 'optional';
}

/** True when a forbidding negation is the nearest one before `at` (negation runs to the clause end). */
export function negatedAt(clause: Clause, at: number): boolean {
  return polarityAt(clause, at) === 'forbid';
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
 * A label that opens a list item ("**Security**: never log …", "**Go**: >= 1.26",
 * "**Changelog:**"): not the verb of an imperative; the instruction, if any, follows it. A
 * pattern source, bounded so it never scans far, for topics to anchor their patterns after it.
 */
export const LIST_LABEL = String.raw`[*_]{0,2}[A-Za-z][\w .\/-]{0,30}?[*_]{0,2} ?:[*_]{0,2}\s+`;

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
