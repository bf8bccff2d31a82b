/**
 * Wildcard matching without backtracking: a pattern of literal characters,
 * ANY (one character) and STAR (any run) against a text, by the two-pointer
 * algorithm, which returns to the last star only — at most |pattern| × |text|
 * steps, never the exponential work of a regular expression with several
 * lazy loops. Branch-name templates (conflicts/topics/branch-name.ts) and glob
 * segments (resolve/glob-linear.ts) are both matched here.
 */

/** One character. */
export const ANY = 0;
/** Any run of characters, the empty one included. */
export const STAR = 1;
/** ANY, STAR, or a literal character (compared as one UTF-16 code unit of the text). */
export type WildToken = typeof ANY | typeof STAR | string;

export function wildMatch(p: readonly WildToken[], s: string): boolean {
  let i = 0;
  let j = 0;
  let star = -1;
  let mark = 0;
  while (j < s.length) {
    const t = p[i];
    if (i < p.length && (t === ANY || t === s[j])) {
      i++;
      j++;
    } else if (i < p.length && t === STAR) {
      star = i++;
      mark = j;
    } else if (star >= 0) {
      i = star + 1;
      j = ++mark;
    } else return false;
  }
  while (i < p.length && p[i] === STAR) i++;
  return i === p.length;
}
