/**
 * Shared view of a document's text for lint rules: offset → (line, col) and
 * "is this offset inside code". Every rule matches on `doc.text`; this index
 * turns match offsets into 1-based positions counted in UTF-16 code units, and
 * answers the code question the prompt-injection rules need (docs that quote
 * an attack inside a fence or code span are examples, not instructions).
 *
 * Algorithm, linear in the text length:
 *   1. record the offset where each line starts;
 *   2. walk the lines once, tracking CommonMark fences (``` or ~~~, 3+ chars,
 *      closed by the same char at least as long; an unclosed fence runs to EOF);
 *   3. outside fences, collect backtick runs per paragraph and pair each run
 *      with the next run of the same length in the same paragraph (a
 *      precomputed "next run of this length" table keeps this linear).
 */
import type { Span } from '../../types.js';

export interface TextIndex {
  readonly text: string;
  /** Offset of the first character of each line (index 0 = line 1). */
  readonly lineStarts: readonly number[];
  /** [start, end) ranges of fenced code blocks (whole lines, fence lines included). */
  readonly fences: readonly (readonly [number, number])[];
  /** [start, end) ranges of inline code spans (backticks included). */
  readonly codeSpans: readonly (readonly [number, number])[];
}

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/;

export function buildTextIndex(text: string): TextIndex {
  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const fences: [number, number][] = [];
  const codeSpans: [number, number][] = [];
  let open: { char: string; len: number; start: number } | null = null;
  let para: [number, number] | null = null;
  const flushPara = (): void => {
    if (para) collectCodeSpans(text, para[0], para[1], codeSpans);
    para = null;
  };
  for (let n = 0; n < lineStarts.length; n++) {
    const start = lineStarts[n]!;
    const end = n + 1 < lineStarts.length ? lineStarts[n + 1]! : text.length;
    const line = text.slice(start, Math.min(end, start + 64));
    if (open) {
      const close = FENCE_OPEN.exec(line);
      if (close && close[1]![0] === open.char && close[1]!.length >= open.len &&
          isBlank(text, start + close[0].length, end)) {
        fences.push([open.start, end]);
        open = null;
      }
      continue;
    }
    const fence = FENCE_OPEN.exec(line);
    if (fence && !(fence[1]![0] === '`' && text.slice(start + fence[0].length, end).includes('`'))) {
      flushPara();
      open = { char: fence[1]![0]!, len: fence[1]!.length, start };
      continue;
    }
    if (isBlank(text, start, end)) flushPara();
    else if (para) para[1] = end;
    else para = [start, end];
  }
  if (open) fences.push([open.start, text.length]);
  flushPara();
  return { text, lineStarts, fences, codeSpans };
}

function isBlank(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return false;
  }
  return true;
}

/** Pair backtick runs of equal length inside one paragraph [from, to). */
function collectCodeSpans(text: string, from: number, to: number, out: [number, number][]): void {
  const runs: { start: number; len: number }[] = [];
  for (let i = text.indexOf('`', from); i !== -1 && i < to; i = text.indexOf('`', i)) {
    let j = i;
    while (j < to && text.charCodeAt(j) === 0x60) j++;
    runs.push({ start: i, len: j - i });
    i = j;
  }
  const next = new Array<number>(runs.length).fill(-1);
  const lastByLen = new Map<number, number>();
  for (let k = runs.length - 1; k >= 0; k--) {
    const len = runs[k]!.len;
    next[k] = lastByLen.get(len) ?? -1;
    lastByLen.set(len, k);
  }
  for (let k = 0; k < runs.length; ) {
    const m = next[k]!;
    if (m === -1) { k++; continue; }
    out.push([runs[k]!.start, runs[m]!.start + runs[m]!.len]);
    k = m + 1;
  }
}

/** Binary search: the 0-based line holding `offset`. */
export function lineIndexOf(index: TextIndex, offset: number): number {
  const starts = index.lineStarts;
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

export function positionAt(index: TextIndex, offset: number): { line: number; col: number } {
  const line = lineIndexOf(index, offset);
  return { line: line + 1, col: offset - index.lineStarts[line]! + 1 };
}

/** Span of [start, end) in the text; the end column is exclusive (one past the last unit). */
export function spanOf(index: TextIndex, start: number, end: number): Span {
  return { start: positionAt(index, start), end: positionAt(index, Math.max(start, end)) };
}

/** The [start, end) bounds of the line holding `offset`, without its newline. */
export function lineBounds(index: TextIndex, offset: number): [number, number] {
  const n = lineIndexOf(index, offset);
  const start = index.lineStarts[n]!;
  const next = index.lineStarts[n + 1];
  return [start, next === undefined ? index.text.length : next - 1];
}

function inRanges(ranges: readonly (readonly [number, number])[], offset: number): boolean {
  let lo = 0;
  let hi = ranges.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [s, e] = ranges[mid]!;
    if (offset < s) hi = mid - 1;
    else if (offset >= e) lo = mid + 1;
    else return true;
  }
  return false;
}

export function inFence(index: TextIndex, offset: number): boolean {
  return inRanges(index.fences, offset);
}

/** True when `offset` is inside a fenced block or an inline code span. */
export function inCode(index: TextIndex, offset: number): boolean {
  return inRanges(index.fences, offset) || inRanges(index.codeSpans, offset);
}

/** Run a global regex over the text, yielding every match (zero-length safe). */
export function* matchesOf(re: RegExp, text: string): Generator<RegExpExecArray> {
  const g = re.global ? re : new RegExp(re.source, re.flags + 'g');
  g.lastIndex = 0;
  for (let m = g.exec(text); m; m = g.exec(text)) {
    if (m[0].length === 0) g.lastIndex++;
    yield m;
  }
}

const CACHE = new WeakMap<object, TextIndex>();

/** One index per document, shared by every rule that looks at it. */
export function textIndexOf(doc: { text: string }): TextIndex {
  let index = CACHE.get(doc);
  if (!index || index.text !== doc.text) {
    index = buildTextIndex(doc.text);
    CACHE.set(doc, index);
  }
  return index;
}
