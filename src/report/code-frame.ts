/**
 * The code frame under a diagnostic: the source line and a row of carets
 * under the reported range, like tsc.
 *
 * Diagnostic columns count UTF-16 code units (1-based); a terminal counts
 * cells. So the frame:
 *   1. cuts a slice of the line around the range (long lines are megabytes;
 *      the slice has a wide margin so masking by value still sees whole secrets)
 *      and lets the caller mask secrets in it (same length, columns unchanged);
 *   2. turns each code point into what the terminal shows and how wide it is:
 *      control and bidi characters as `\u001b` (their visible escape), a tab as
 *      one space, combining marks and invisible format characters as zero
 *      cells, East Asian wide characters and emoji as two;
 *   3. when the line is wider than the frame, shows a window of it around the
 *      reported range, with `…` where it is cut, so the caret is always under
 *      the reported text; a range longer than the window is cut on the right.
 */
import { visibleEscape } from './escape.js';

export const FRAME_WIDTH = 120;
/** Code units of margin kept on each side of the range before windowing (and before masking). */
const SLICE_MARGIN = 4096;

interface Unit { offset: number; text: string; width: number }

const CONTROL = /^[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]$/;
const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}]$/u;
const EMOJI = /^\p{Emoji_Presentation}$/u;

/** East Asian Wide and Fullwidth blocks (a compact subset of UAX #11 that covers CJK, Hangul and fullwidth forms). */
function isWide(cp: number): boolean {
  return (cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0x303e) || (cp >= 0x3041 && cp <= 0x33ff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) || (cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0xa000 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) || (cp >= 0xffe0 && cp <= 0xffe6) || (cp >= 0x20000 && cp <= 0x3fffd);
}

function unitOf(ch: string, offset: number): Unit {
  if (ch === '\t') return { offset, text: ' ', width: 1 };
  if (CONTROL.test(ch)) {
    const text = visibleEscape(ch);
    return { offset, text, width: text.length };
  }
  if (ZERO_WIDTH.test(ch)) return { offset, text: ch, width: 0 };
  const cp = ch.codePointAt(0)!;
  return { offset, text: ch, width: isWide(cp) || EMOJI.test(ch) ? 2 : 1 };
}

function unitsOf(text: string, base: number): Unit[] {
  const units: Unit[] = [];
  let offset = base;
  for (const ch of text) {
    units.push(unitOf(ch, offset));
    offset += ch.length;
  }
  return units;
}

/** Never cut between the two halves of a surrogate pair. */
function snap(line: string, i: number): number {
  const c = line.charCodeAt(i);
  return i > 0 && i < line.length && c >= 0xdc00 && c <= 0xdfff ? i - 1 : i;
}

export interface FrameRange {
  /** 0-based code-unit offsets in the line; `end` is exclusive (the end of the line when the range spans lines). */
  start: number;
  end: number;
}

/**
 * The two frame rows (`  12 | text`, `     |   ^^^`). `mask(slice, offset)`
 * may rewrite the slice of the line that starts at code unit `offset`, keeping its length.
 */
export function codeFrame(line: string, lineNo: number, range: FrameRange,
  mask: (slice: string, offset: number) => string = (s) => s, width = FRAME_WIDTH): [string, string] {
  const start = Math.max(0, Math.min(range.start, line.length));
  const end = Math.max(start + 1, Math.min(range.end, line.length));
  const from = snap(line, Math.max(0, start - SLICE_MARGIN));
  const to = snap(line, Math.min(line.length, end + SLICE_MARGIN));
  const units = unitsOf(mask(line.slice(from, to), from), from);
  const positions: number[] = [];
  let total = 0;
  for (const u of units) { positions.push(total); total += u.width; }
  const cellAt = (offset: number): number => {
    const i = units.findIndex((u) => u.offset >= offset);
    return i === -1 ? total : positions[i]!;
  };
  const caretStart = cellAt(start);
  const caretEnd = Math.max(caretStart + 1, cellAt(end));
  const cutLeftOfSlice = from > 0;
  const cutRightOfSlice = to < line.length;
  const fits = total <= width && !cutLeftOfSlice && !cutRightOfSlice;
  const inner = fits ? total : width - 2;
  const left = fits ? 0 : Math.max(0, Math.min(caretStart - Math.floor(inner / 3), total - inner));
  let shown = '';
  let firstCell = -1;
  let lastCell = left;
  units.forEach((u, i) => {
    const at = positions[i]!;
    if (at < left || at + u.width > left + inner) return;
    if (firstCell === -1) firstCell = at;
    shown += u.text;
    lastCell = at + u.width;
  });
  if (firstCell === -1) firstCell = left;
  const leftCut = firstCell > 0 || cutLeftOfSlice;
  const rightCut = lastCell < total || cutRightOfSlice;
  const text = `${leftCut ? '…' : ''}${shown}${rightCut ? '…' : ''}`;
  const caretCol = (leftCut ? 1 : 0) + Math.max(0, caretStart - firstCell);
  const caretWidth = Math.max(1, Math.min(caretEnd, Math.max(lastCell, caretStart + 1)) - Math.max(caretStart, firstCell));
  const num = String(lineNo);
  return [`  ${num} | ${text}`, `  ${' '.repeat(num.length)} | ${' '.repeat(caretCol)}${'^'.repeat(caretWidth)}`];
}
