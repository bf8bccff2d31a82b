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
  let out = '';
  let i = 0;
  let inComment = commentOpen;
  while (i < line.length) {
    if (inComment) {
      const end = line.indexOf('-->', i);
      const stop = end < 0 ? line.length : end + 3;
      out += ' '.repeat(stop - i);
      i = stop;
      inComment = end < 0;
      continue;
    }
    if (line.startsWith('<!--', i)) {
      out += '    ';
      i += 4;
      inComment = true;
      continue;
    }
    if (codeSpans && line[i] === '`') {
      let run = 1;
      while (line[i + run] === '`') run++;
      const ticks = '`'.repeat(run);
      const close = line.indexOf(ticks, i + run);
      if (close >= 0) {
        out += ' '.repeat(close + run - i);
        i = close + run;
        continue;
      }
      out += ticks;
      i += run;
      continue;
    }
    out += line[i];
    i++;
  }
  return { masked: out, commentOpen: inComment };
}

const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;

export function headingOf(line: string): { level: number; text: string } | null {
  const m = HEADING.exec(line);
  if (!m?.[1]) return null;
  return { level: m[1].length, text: (m[2] ?? '').trim() };
}
