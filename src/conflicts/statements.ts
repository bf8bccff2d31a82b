/**
 * Statements and clauses: the units topic extractors read.
 *
 * 1. Lines outside fenced code are grouped into blocks: a list item with its
 *    continuation lines, a paragraph, or one table row. HTML comments are
 *    blanked; headings are not statements.
 * 2. A block's lines are joined with single spaces; every offset maps back to
 *    its file line and column.
 * 3. A statement splits into clauses at `;`, sentence ends, `!`, `?` and
 *    ", but" / ", and then" — never inside an inline code span.
 * 4. Words after an example marker ("e.g.", "for example", "such as") up to the
 *    clause end or closing parenthesis, and the condition of a leading
 *    "if …," are blanked: they describe, they do not prescribe.
 */
import type { Position } from '../types.js';
import { headingOf, maskInline } from '../parse/markdown-scan.js';

export interface Statement {
  text: string;
  line: number;
  col: number;
  /** Start offset of each joined line segment, with its file position. */
  segments: { offset: number; line: number; col: number }[];
}

export interface Clause {
  /** Offset of the clause in its statement. */
  start: number;
  /** Clause text with example words blanked (same length as the raw clause). */
  text: string;
  /** `text` with inline code spans blanked too. */
  prose: string;
  /** Inline code spans: offsets within the clause and their contents. */
  code: { start: number; end: number; content: string }[];
}

const ITEM = /^(\s*)(?:[-*+]|\d{1,3}[.)])\s+(?:\[[ xX]\]\s+)?/;
/** A table's separator row (`| --- | :-: |`): only `| : -` and spaces, with a `|` after the first character. */
const TABLE_CHARS = /^[\s:|-]*$/;
const isTableSeparator = (text: string): boolean => text.indexOf('|', 1) > 0 && TABLE_CHARS.test(text);

export function statementsOf(lines: readonly { line: number; text: string }[]): Statement[] {
  const out: Statement[] = [];
  let cur: Statement | null = null;
  let commentOpen = false;
  const flush = (): void => {
    if (cur && cur.text.trim() !== '') out.push(cur);
    cur = null;
  };
  for (const l of lines) {
    const masked = maskInline(l.text, commentOpen, { codeSpans: false });
    const blanked = { text: masked.masked, open: masked.commentOpen };
    commentOpen = blanked.open;
    let text = blanked.text;
    if (text.trim() === '' || headingOf(text)) {
      flush();
      continue;
    }
    let col = 1;
    const quote = /^\s*(?:>\s?)+/.exec(text);
    if (quote) {
      col += quote[0].length;
      text = text.slice(quote[0].length);
    }
    const item = ITEM.exec(text);
    const isRow = text.trimStart().startsWith('|');
    if (item || isRow) flush();
    if (isRow && isTableSeparator(text)) continue;
    const skip = item ? item[0].length : text.length - text.trimStart().length;
    col += skip;
    const seg = text.slice(skip).trimEnd();
    if (cur === null) cur = { text: '', line: l.line, col, segments: [] };
    const c: Statement = cur;
    if (c.text !== '') c.text += ' ';
    c.segments.push({ offset: c.text.length, line: l.line, col });
    c.text += seg;
    if (isRow) flush();
  }
  flush();
  return out;
}

export function positionAt(s: Statement, offset: number): Position {
  // The last segment starting at or before `offset` (segments are in offset order).
  let lo = 0;
  let hi = s.segments.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((s.segments[mid] as Statement['segments'][number]).offset <= offset) lo = mid + 1;
    else hi = mid;
  }
  const seg = s.segments[Math.max(0, lo - 1)] ?? { offset: 0, line: s.line, col: s.col };
  return { line: seg.line, col: seg.col + Math.max(0, offset - seg.offset) };
}


/** The last text maskCode masked, and what it gave. */
let lastMasked: { text: string; masked: { prose: string; code: readonly Clause['code'][number][] } } | null = null;

/**
 * Blank inline code spans, keeping offsets; also returns the spans (read-only:
 * the answer for the last text is kept). Clause splitting, example blanking
 * and the duplicate keys each mask the same statement, up to seven times in a
 * row; a long one is masked once.
 */
export function maskCode(text: string): { prose: string; code: readonly Clause['code'][number][] } {
  if (!text.includes('`')) return { prose: text, code: [] };
  if (lastMasked !== null && lastMasked.text === text) return lastMasked.masked;
  const masked = maskSpans(text);
  lastMasked = { text, masked };
  return masked;
}

function maskSpans(text: string): { prose: string; code: readonly Clause['code'][number][] } {
  const parts: string[] = [];
  const code: Clause['code'] = [];
  let from = 0;
  // A run of n backticks with no closing run after it means no longer run closes later either:
  // remember the shortest such n, so a line of unclosed openers is scanned once, not once per opener.
  let unclosable = Infinity;
  let i = text.indexOf('`');
  while (i >= 0) {
    let run = 1;
    while (text[i + run] === '`') run++;
    const close = run >= unclosable ? -1 : text.indexOf('`'.repeat(run), i + run);
    if (close < 0) {
      unclosable = Math.min(unclosable, run);
      i = text.indexOf('`', i + run);
      continue;
    }
    parts.push(text.slice(from, i), ' '.repeat(close + run - i));
    code.push({ start: i + run, end: close, content: text.slice(i + run, close).trim() });
    from = close + run;
    i = text.indexOf('`', from);
  }
  parts.push(text.slice(from));
  return { prose: parts.join(''), code: Object.freeze(code) };
}

// `\sbut\s+`, not `\s+but\s+`: the same cuts (a cut is where a match ends), without rescanning a
// long run of spaces from each of its positions.
const BREAK = /;|[.!?](?=\s|$)|,\s+(?:but|and then|then|otherwise)\b|\sbut\s+|\s[—–]\s/g;
/** Words whose dot ends no sentence (tested on the few characters before the dot). */
export const ABBREV = /\b(?:e\.g|i\.e|etc|vs|cf|approx|incl|resp)$/i;
const EXAMPLE = /\b(?:e\.g\.|for example|for instance|such as|example:|examples:|as an example|an example of|like this)/gi;

export function clausesOf(s: Statement): Clause[] {
  const { prose } = maskCode(s.text);
  const cuts: number[] = [0];
  for (const m of prose.matchAll(BREAK)) {
    const at = m.index ?? 0;
    if (m[0] === '.' && ABBREV.test(prose.slice(Math.max(0, at - 8), at))) continue;
    cuts.push(at + m[0].length);
  }
  cuts.push(s.text.length);
  const out: Clause[] = [];
  for (let i = 0; i + 1 < cuts.length; i++) {
    const start = cuts[i] as number;
    const raw = s.text.slice(start, cuts[i + 1]);
    if (raw.trim() === '') continue;
    const text = blankExamples(raw);
    const masked = maskCode(text);
    out.push({ start, text, prose: masked.prose, code: masked.code.filter((c) => c.content !== '') });
  }
  return out;
}

/** A parenthesis whose list ends in "etc." gives examples: "root commands (`npm run lint`, `npm run test:contract`, etc.)". */
const ETC_LIST = /\([^()]*\betc\b\.?\s*\)/gi;

function blankExamples(raw: string): string {
  let text = raw;
  const cond = /^\s*(?:if|when|unless|whenever|once|before|after)\b[^,]*,/i.exec(maskCode(text).prose);
  if (cond) text = ' '.repeat(cond[0].length) + text.slice(cond[0].length);
  if (/\betc\b/i.test(text)) text = text.replace(ETC_LIST, (m) => ' '.repeat(m.length));
  // Each example marker blanks up to the next `)` (or the clause end); markers inside a blanked
  // stretch end at the same `)`. Built once, so many markers cost one pass.
  const parts: string[] = [];
  let from = 0;
  for (const m of maskCode(text).prose.matchAll(EXAMPLE)) {
    const at = m.index ?? 0;
    if (at < from) continue;
    const close = text.indexOf(')', at);
    const end = close < 0 ? text.length : close;
    parts.push(text.slice(from, at), ' '.repeat(end - at));
    from = end;
    if (close < 0) break;
  }
  parts.push(text.slice(from));
  return parts.join('');
}
