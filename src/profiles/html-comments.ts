/**
 * Block-level HTML comment stripping as Claude Code 2.1.332 does it (observed
 * with the oracle, fixture m-transforms). Claude lexes the file as Markdown
 * (marked) and rewrites the `html` tokens that hold comments:
 * 1. The lexer first turns CRLF and CR into LF, for the whole file — so a
 *    file with any `<!--` loses its CRs, one without keeps them.
 * 2. A comment token starts on a line outside code fences whose text after up
 *    to 3 spaces begins with `<!--`. It ends at the end of the line holding
 *    the first `-->` and swallows the blank lines after it; without `-->` it
 *    runs to the end of the file.
 * 3. Inside the token every `<!-- … -->` is removed. If only whitespace is
 *    left the token disappears; otherwise the rest stays (text after `-->` on
 *    the same line, or a whole unclosed comment).
 * 4. Inline comments after other text, and comments in code, stay.
 */
import { scanLines } from '../parse/markdown-scan.js';

export function stripBlockComments(input: string): string {
  const lines = scanLines(input.replace(/\r\n?/g, '\n')).map((l) => ({ text: l.text, inFence: l.inFence }));
  const out: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.inFence || !/^ {0,3}<!--/.test(line.text)) {
      out.push(line.text + (i < lines.length - 1 ? '\n' : ''));
      i++;
      continue;
    }
    let j = i;
    const opener = line.text.indexOf('<!--');
    let closed = line.text.indexOf('-->', opener + 4) >= 0;
    while (!closed && j + 1 < lines.length) closed = lines[++j]!.text.includes('-->');
    if (closed) while (j + 1 < lines.length - 1 && lines[j + 1]!.text.trim() === '') j++;
    const token = lines.slice(i, j + 1).map((l) => l.text).join('\n') + (j < lines.length - 1 ? '\n' : '');
    const rest = removeComments(token);
    if (rest.trim() !== '') out.push(rest);
    i = j + 1;
  }
  return out.join('');
}

/**
 * `text.replace(/<!--[\s\S]*?-->/g, '')` in one left-to-right pass. The lazy
 * regex restarts its scan for `-->` at every `<!--`, which is quadratic on a
 * line of repeated `<!-- `; this finds each opener's first closer once. With
 * no closer after an opener, no later opener has one either: the rest stays.
 */
export function removeComments(text: string): string {
  return replaceComments(text, () => '');
}

/** `text.replace(/<!--[\s\S]*?-->/g, by)`, linear (see removeComments). */
export function replaceComments(text: string, by: (comment: string) => string): string {
  let open = text.indexOf('<!--');
  if (open < 0) return text;
  const parts: string[] = [];
  let from = 0;
  while (open >= 0) {
    const close = text.indexOf('-->', open + 4);
    if (close < 0) break;
    parts.push(text.slice(from, open), by(text.slice(open, close + 3)));
    from = close + 3;
    open = text.indexOf('<!--', from);
  }
  parts.push(text.slice(from));
  return parts.join('');
}
