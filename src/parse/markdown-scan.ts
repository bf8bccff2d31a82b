/**
 * A line scanner for the little Markdown structure rulec needs: fenced code
 * blocks, inline code spans, HTML comments and ATX headings. Not a full
 * CommonMark parser — it only has to agree with the agents on where an `@`
 * import or a heading can occur.
 */

export interface ScannedLine {
  /** 1-based line number in the scanned text (offset by the caller's start line). */
  line: number;
  text: string;
  /** True for fence delimiter lines and the lines between them. */
  inFence: boolean;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

export function scanLines(text: string, firstLine = 1): ScannedLine[] {
  const out: ScannedLine[] = [];
  let open: string | null = null;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const fence = FENCE.exec(line);
    if (open === null && fence?.[1]) {
      const marker = fence[1];
      // A backtick fence's info string may not contain backticks.
      if (marker[0] === '~' || !line.slice(line.indexOf(marker) + marker.length).includes('`')) {
        open = marker;
        out.push({ line: firstLine + i, text: line, inFence: true });
        continue;
      }
    } else if (open !== null) {
      const closes = fence?.[1] && fence[1][0] === open[0] && fence[1].length >= open.length &&
        line.trim() === fence[1];
      out.push({ line: firstLine + i, text: line, inFence: true });
      if (closes) open = null;
      continue;
    }
    out.push({ line: firstLine + i, text: line, inFence: false });
  }
  return out;
}

/**
 * Replace the contents of inline code spans and HTML comments with spaces,
 * keeping every other character at its column. `commentOpen` carries an
 * unterminated `<!--` across lines; `codeSpans: false` masks comments only.
 */
export function maskInline(line: string, commentOpen = false, { codeSpans = true } = {}): { masked: string; commentOpen: boolean } {
  if (!codeSpans && !commentOpen && !line.includes('<!--')) return { masked: line, commentOpen: false };
  // Copy unmasked text in slices, not a character at a time: a 3 MB line would
  // otherwise build millions of one-character strings for the collector.
  const parts: string[] = [];
  let from = 0;
  let i = 0;
  let inComment = commentOpen;
  // A run of n backticks with no closing run means no longer run closes later either.
  let unclosable = Infinity;
  while (i < line.length) {
    if (inComment) {
      const end = line.indexOf('-->', i);
      const stop = end < 0 ? line.length : end + 3;
      parts.push(line.slice(from, i), ' '.repeat(stop - i));
      i = from = stop;
      inComment = end < 0;
      continue;
    }
    if (line.startsWith('<!--', i)) {
      parts.push(line.slice(from, i), '    ');
      i = from = i + 4;
      inComment = true;
      continue;
    }
    if (codeSpans && line[i] === '`') {
      let run = 1;
      while (line[i + run] === '`') run++;
      const close = run >= unclosable ? -1 : line.indexOf('`'.repeat(run), i + run);
      if (close >= 0) {
        parts.push(line.slice(from, i), ' '.repeat(close + run - i));
        i = from = close + run;
        continue;
      }
      unclosable = run;
      i += run;
      continue;
    }
    i++;
  }
  parts.push(line.slice(from));
  return { masked: parts.join(''), commentOpen: inComment };
}

const BLANK = (c: string | undefined): boolean => c === ' ' || c === '\t';
const LINE_BREAK = /[\n\r\u2028\u2029]/;

/**
 * An ATX heading: up to 3 spaces, 1–6 `#`, then nothing or a space or tab and
 * the text, without a closing run of `#` that follows a space or tab. This is
 * what /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/ matches, read in
 * one pass: that regex backtracks cubically on a line of 20,000 spaces between
 * two words (8 s; 2 minutes with tabs). A line break character after the
 * hashes (`\r` of a CRLF file, U+2028) makes no heading, as in the regex.
 */
export function headingOf(line: string): { level: number; text: string } | null {
  let i = 0;
  while (i < 3 && line[i] === ' ') i++;
  let j = i;
  while (line[j] === '#') j++;
  const level = j - i;
  if (level < 1 || level > 6 || (j < line.length && !BLANK(line[j])) || LINE_BREAK.test(line.slice(j))) return null;
  let a = j;
  while (BLANK(line[a])) a++;
  let b = line.length;
  while (b > a && BLANK(line[b - 1])) b--;
  let h = b;
  while (h > a && line[h - 1] === '#') h--;
  if (h < b && h > a && BLANK(line[h - 1])) {
    b = h;
    while (b > a && BLANK(line[b - 1])) b--;
  }
  return { level, text: line.slice(a, b).trim() };
}
