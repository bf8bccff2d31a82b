/**
 * Glob matching without backtracking, for the globs rule files actually use:
 * literal names, `*`, `?`, whole-segment `**` and `{a,b}` lists. picomatch
 * turns each `*` into a lazy regular-expression loop, and a glob with many of
 * them (`*a*a*a*a…`, or `**` and `/a` over and over) backtracks exponentially on a path it
 * does not match: one rule file in a pull request could stall a build. Here a
 * segment is matched by the two-pointer wildcard algorithm (util/wild-match.ts:
 * linear in the name times the pattern) and `**` by a table over segments, so a glob costs time
 * polynomial in the path, whatever it holds.
 *
 * The dialect mirrors picomatch with `{ dot: true }` (test/unit/glob-linear.test.ts
 * checks every shape against it): a `*` or `?` never matches `/`; a segment that
 * starts with `*` is never empty, `.` or `..`; `**` as a whole segment matches
 * any number of segments, none of them `.` or `..` (`a/**` matches `a`, and
 * `**` then `/b` matches `b`); `{a,b}` expands to both, nested, and a group without a
 * top-level comma is literal text. Anything else — brackets, extglobs, quotes,
 * escapes, ranges, `+` and `!` (picomatch reads a `+` after a list as a
 * repetition), a leading `./`, a `**` inside a segment, a star or an empty
 * alternative in a brace list, empty segments — is outside the dialect: `linearGlob` returns null and the
 * caller decides (compileGlob, glob-compile.ts).
 */

import { ANY, STAR, wildMatch, type WildToken } from '../util/wild-match.js';

/** Expansions of one glob's `{a,b}` lists past which it is left to the caller. */
const MAX_ALTERNATIVES = 256;

/** A globstar matches `min` segments or more: one when it ends the glob after a segment ending in `*` (picomatch's `a*` then `/**` does not match `a` itself). */
type Segment = { globstar: true; min: 0 | 1 } | { globstar: false; tokens: WildToken[] };

/** A test of a path against `glob`, or null when the glob is outside the dialect. */
export function linearGlob(glob: string): ((path: string) => boolean) | null {
  if (/[[\]()|\\"'+!]/.test(glob) || glob.startsWith('./')) return null;
  const alternatives = expandBraces(glob);
  if (alternatives === null) return null;
  const compiled: Segment[][] = [];
  for (const alt of alternatives) {
    const segments = segmentsOf(alt);
    if (segments === null) return null;
    compiled.push(segments);
  }
  // picomatch answers the whole globs `*.*` and `**/*.*` by a shortcut of its own, in which the last
  // star takes one character at least: `*.*` does not match `file.` (while `src/*.*` and `a.*` do).
  const last = compiled[0]?.[compiled[0].length - 1];
  if ((glob === '*.*' || glob === '**/*.*') && last && !last.globstar) last.tokens = tokensOf('*.?*');
  return (path) => {
    if (path === '') return false;
    const parts = path.split('/');
    return compiled.some((segments) => matchSegments(segments, parts));
  };
}

/**
 * Every alternative of the glob's brace lists, or null when a list holds a
 * range (`..`) or a star, when braces do not balance, or past MAX_ALTERNATIVES.
 */
function expandBraces(glob: string): string[] | null {
  const open = glob.indexOf('{');
  if (open < 0) return glob.includes('}') ? null : [glob];
  const close = matching(glob, open);
  if (close < 0) return null;
  const inner = glob.slice(open + 1, close);
  const parts = topLevelParts(inner);
  const head = glob.slice(0, open);
  if (head.includes('}')) return null;
  const tails = expandBraces(glob.slice(close + 1));
  if (tails === null) return null;
  let middles: string[];
  if (inner.includes('..')) return null;
  if (parts.length === 1) {
    // No top-level comma: the braces are literal text around whatever lists the inside holds.
    const inside = expandBraces(inner);
    if (inside === null) return null;
    middles = inside.map((m) => `{${m}}`);
  } else {
    // A star or an empty alternative in a list changes which stars picomatch reads as a segment's first or last.
    if (inner.includes('*') || parts.some((part) => part === '')) return null;
    middles = [];
    for (const part of parts) {
      const expanded = expandBraces(part);
      if (expanded === null) return null;
      middles.push(...expanded);
    }
  }
  if (middles.length * tails.length > MAX_ALTERNATIVES) return null;
  return middles.flatMap((m) => tails.map((t) => `${head}${m}${t}`));
}

/** Index of the `}` that closes the `{` at `open`, or -1. */
function matching(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return i;
  }
  return -1;
}

/** `inner` split at the commas outside nested braces. */
function topLevelParts(inner: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (c === '{') depth++;
    else if (c === '}') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(inner.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(inner.slice(start));
  return parts;
}

function segmentsOf(alt: string): Segment[] | null {
  const raw = alt.split('/');
  const out: Segment[] = [];
  for (const s of raw) {
    if (s === '') return null;
    if (s === '**') {
      if (out[out.length - 1]?.globstar !== true) out.push({ globstar: true, min: 0 });
      continue;
    }
    // `**` inside a segment, and a leading dot before a star, are read by picomatch in ways of their own.
    if (s.includes('**') || /^\.[*?]/.test(s)) return null;
    out.push({ globstar: false, tokens: tokensOf(s) });
  }
  const last = out[out.length - 1];
  const before = out[out.length - 2];
  if (last?.globstar && before && !before.globstar && before.tokens[before.tokens.length - 1] === STAR) last.min = 1;
  return out;
}

/** Whether `parts` (a path's segments) match `segments`: a table over both, no backtracking. */
function matchSegments(segments: readonly Segment[], parts: readonly string[]): boolean {
  const g = segments.length;
  const p = parts.length;
  // reach[j]: segments[0..i) can match parts[0..j).
  let reach = new Array<boolean>(p + 1).fill(false);
  reach[0] = true;
  for (let i = 0; i < g; i++) {
    const seg = segments[i] as Segment;
    const next = new Array<boolean>(p + 1).fill(false);
    if (seg.globstar) {
      // Any number of segments, none of them `.` or `..`.
      // open: the first reached position at or before j with no `.` or `..` segment since; `min` segments at least.
      let open = -1;
      for (let j = 0; j <= p; j++) {
        if (reach[j] && open < 0) open = j;
        if (open >= 0 && j - open >= seg.min) next[j] = true;
        const part = parts[j];
        if (part === '.' || part === '..') open = -1;
      }
    } else {
      for (let j = 0; j < p; j++) if (reach[j] && segmentMatches(seg, parts[j] as string)) next[j + 1] = true;
    }
    reach = next;
  }
  return reach[p] === true;
}

function segmentMatches(seg: Extract<Segment, { globstar: false }>, name: string): boolean {
  if (seg.tokens[0] === STAR && (name === '' || name === '.' || name === '..')) return false;
  return wildMatch(seg.tokens, name);
}

/** A segment's pattern as wild-match tokens: `*` any run, `?` one character, the rest literal (by UTF-16 code unit, as picomatch reads it). */
function tokensOf(pattern: string): WildToken[] {
  return pattern.split('').map((c) => (c === '*' ? STAR : c === '?' ? ANY : c));
}
