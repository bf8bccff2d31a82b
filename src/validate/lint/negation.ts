/**
 * "Is this mention forbidding the thing it names?" Real instruction files say
 * "never use --no-verify" and "don't force-push to main"; flagging those would
 * teach people to ignore the lint. A match counts as forbidden when:
 *   1. its sentence, up to the match (same line, or the wrapped lines of the
 *      same paragraph), contains a negation (never, don't, must not, avoid …);
 *   2. the rest of its sentence says so ("… is not allowed", "… is forbidden");
 *   3. it sits in a list or code block introduced by a negating line ending in
 *      a colon ("Never run:"), or under a heading like "## Don'ts" / "Avoid";
 *   4. it sits in the condition of a sentence ("If you committed with
 *      `--no-verify`, run the formatter"): the sentence names a situation to
 *      recover from, and its instruction is what follows the comma.
 * The scan is bounded (a few lines, a few hundred characters), so it stays
 * linear however long the file is.
 */
import { inFence, lineIndexOf, type TextIndex } from './text-index.js';

const NEGATION =
  /\b(?:never|don['’]?t|dont|do\s+not|does\s+not|doesn['’]?t|must\s+not|mustn['’]?t|should\s+not|shouldn['’]?t|cannot|can['’]?t|won['’]?t|will\s+not|avoid(?:s|ing)?|not|no|without|instead\s+of|rather\s+than|refrain|prohibit(?:s|ed)?|forbid(?:s|den)?|disallow(?:s|ed)?|stop)\b/i;
const NEGATION_AFTER =
  /^[^.!?;\n]{0,100}?(?:\b(?:is|are)\s+(?:not\s+allowed|not\s+permitted|forbidden|prohibited|banned|disallowed)\b|\bnot\s+(?:allowed|permitted)\b|\(\s*never\s*\))/i;
/** A sentence that opens with a condition (after any list marker or emphasis). */
const CONDITION = /^\s*(?:[-*+]|\d{1,3}[.)])?\s*[*_]*(?:if|when|whenever|once|after|in\s+case|should\s+you)\b/i;
/** The condition ends (a comma, or "then") before the sentence does. */
const CONDITION_ENDS = /^[^.!?;\n]{0,120}?(?:,|\bthen\b)/i;
const NEGATING_HEADING =
  /\b(?:never|don['’]?ts?|do\s+not|forbidden|prohibited|avoid|anti-?patterns?|not\s+allowed|must\s+not|mistakes)\b/i;
const LIST_ITEM = /^\s*(?:[-*+]|\d{1,3}[.)])\s/;
const HEADING = /^ {0,3}#{1,6}\s/;
const FENCE = /^ {0,3}(?:`{3,}|~{3,})/;
const SENTENCE_END = /[.!?;](?=\s|$)/g;
const MAX_LINES_BACK = 3;
const MAX_INTRO_SCAN = 40;
const MAX_HEADING_SCAN = 80;

function lineText(index: TextIndex, n: number): string {
  const start = index.lineStarts[n]!;
  const next = index.lineStarts[n + 1];
  return index.text.slice(start, next === undefined ? index.text.length : next - 1);
}

function isBlankLine(s: string): boolean {
  return s.trim() === '';
}

/** Text from the start of the match's sentence up to the match. */
function clauseBefore(index: TextIndex, start: number): string {
  let n = lineIndexOf(index, start);
  let from = index.lineStarts[n]!;
  const fenced = inFence(index, start);
  for (let k = 0; k < MAX_LINES_BACK && !fenced && n > 0; k++) {
    const cur = lineText(index, n);
    if (LIST_ITEM.test(cur) || HEADING.test(cur)) break;
    const prev = lineText(index, n - 1);
    if (isBlankLine(prev) || HEADING.test(prev) || FENCE.test(prev)) break;
    n--;
    from = index.lineStarts[n]!;
  }
  const before = index.text.slice(Math.max(from, start - 400), start);
  let cut = 0;
  for (const m of before.matchAll(SENTENCE_END)) cut = m.index + 1;
  return before.slice(cut);
}

/** The line that introduces the list or code block holding line n, if any. */
function introLine(index: TextIndex, n: number): string | null {
  const fenced = inFence(index, index.lineStarts[n]!);
  for (let k = n - 1, seen = 0; k >= 0 && seen < MAX_INTRO_SCAN; k--, seen++) {
    const s = lineText(index, k);
    if (fenced) {
      if (FENCE.test(s)) {
        for (let j = k - 1; j >= 0 && j >= k - 2; j--) {
          const t = lineText(index, j);
          if (!isBlankLine(t)) return t;
        }
        return null;
      }
      continue;
    }
    if (isBlankLine(s) || LIST_ITEM.test(s) || /^\s{2,}\S/.test(s)) continue;
    return s;
  }
  return null;
}

function nearestHeading(index: TextIndex, n: number): string | null {
  for (let k = n - 1, seen = 0; k >= 0 && seen < MAX_HEADING_SCAN; k--, seen++) {
    const s = lineText(index, k);
    if (HEADING.test(s) && !inFence(index, index.lineStarts[k]!)) return s;
  }
  return null;
}

/** True when the text around [start, end) forbids, rather than asks for, the match. */
export function isForbidden(index: TextIndex, start: number, end: number): boolean {
  const before = clauseBefore(index, start);
  if (NEGATION.test(before)) return true;
  if (CONDITION.test(before) && CONDITION_ENDS.test(index.text.slice(end, end + 160))) return true;
  if (NEGATION_AFTER.test(index.text.slice(end, end + 160))) return true;
  const n = lineIndexOf(index, start);
  const cur = lineText(index, n);
  if (LIST_ITEM.test(cur) || inFence(index, start)) {
    const intro = introLine(index, n);
    if (intro && /:\W*$/.test(intro) && NEGATION.test(intro)) return true;
  }
  const heading = nearestHeading(index, n);
  return heading !== null && NEGATING_HEADING.test(heading);
}
