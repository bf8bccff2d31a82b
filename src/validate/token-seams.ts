/**
 * Where a text can be cut without changing its token count. tiktoken splits
 * text into pieces with its pre-tokenizer regex and counts each piece alone,
 * so a text's count is the sum of its parts' whenever no piece spans a cut.
 *
 * In o200k_base's and cl100k_base's patterns (recognised by the sha256 of
 * `pat_str`), a line that starts with neither whitespace nor '/' starts a
 * piece, whatever came before: a piece that holds the newline before it goes
 * on only over whitespace, '\r', '\n' or '/' (`\s*[\r\n]+`, `[\r\n/]*` after
 * punctuation, `\s+`), a word's optional first character is never a newline,
 * and the patterns look behind nothing. p50k and r50k fail this (`\s+(?!\S)`
 * splits "\n\n" before a word differently at the end of a text): their texts
 * are never cut. test/unit/token-count.test.ts checks both on random texts.
 */
import { sha256Hex } from '../util/hash.js';

const SEAM_PATTERNS = new Set(['6f88fcc3dd53c515d0835648c274a7df6e686598d0f3d4981319b524ed55ddd2',
  'aab5f2624d4f164e161d4db2fa958ff25c813a6ebefd3c7ae807ffd0379a3fc4']);
/** A line starting with this character starts a piece in those patterns. */
const PIECE_START = /[^\s/]/;

/** Whether texts of the pre-tokenizer pattern `patStr` may be cut into paragraphs (paragraphsOf). */
export function cutsAtSeams(patStr: string): boolean {
  return SEAM_PATTERNS.has(sha256Hex(patStr));
}

/** `text` cut after each blank line that a piece-starting character follows: its paragraphs, in order (one when there is no such seam). */
export function paragraphsOf(text: string): string[] {
  const out: string[] = [];
  let from = 0;
  for (let i = text.indexOf('\n\n'); i >= 0; i = text.indexOf('\n\n', i + 1)) {
    const at = i + 2;
    if (at >= text.length || !PIECE_START.test(text[at] as string)) continue;
    out.push(text.slice(from, at));
    from = at;
  }
  out.push(from === 0 ? text : text.slice(from));
  return out;
}
