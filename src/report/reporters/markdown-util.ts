/**
 * Markdown for a GitHub comment, safe for any text a file can hold.
 *
 * - `mdText`: inline text. Markdown punctuation is backslash-escaped, `&`
 *   becomes an entity, and a zero-width space follows `@` and `#` (before a
 *   digit) so a file can never mention a user or cross-reference an issue.
 * - `mdCode`: an inline code span whose fence is longer than any backtick run
 *   inside it; in a table cell `|` is escaped, as GFM requires even in code.
 * - `mdFence`: a fenced block whose fence is longer than any run inside it.
 * - `fitSections`: the comment keeps its head, then adds section items while
 *   the whole stays under GitHub's 65,536-character limit, and says what it
 *   left out.
 */
import { num } from '../num.js';

export const COMMENT_LIMIT = 65_536;
/** Leave room for the truncation note and anything a workflow wraps around the body. */
const RESERVE = 1_024;
const ZWSP = '&#8203;';

const oneLine = (s: string): string => s.replace(/[\r\n\t]+/g, ' ');

/**
 * Inline text (never at the start of a line), safe in a table cell: the
 * characters that open emphasis, code, links, HTML or a cell boundary are
 * backslash-escaped; `&` becomes an entity; `@name` and `#123` get a
 * zero-width space so they neither mention nor cross-reference.
 */
export function mdText(s: string): string {
  const escaped = oneLine(s).replace(/&/g, '&amp;').replace(/[\\`*_[\]<>|~]/g, (c) => `\\${c}`);
  // The # pass runs first: the entity it inserts holds a # that the @ pass must not see again.
  return escaped.replace(/#(?=\d)/g, `#${ZWSP}`).replace(/@(?=[A-Za-z0-9])/g, `@${ZWSP}`);
}

function longestRun(s: string, ch: string): number {
  let best = 0;
  let run = 0;
  for (const c of s) {
    run = c === ch ? run + 1 : 0;
    if (run > best) best = run;
  }
  return best;
}

export function mdCode(s: string, inTable = false): string {
  let text = oneLine(s);
  if (text === '') return '*(empty)*';
  const fence = '`'.repeat(longestRun(text, '`') + 1);
  const pad = text.startsWith('`') || text.endsWith('`') || (text.startsWith(' ') && text.endsWith(' ')) ? ' ' : '';
  if (inTable) text = text.replace(/\|/g, '\\|');
  return `${fence}${pad}${text}${pad}${fence}`;
}

export function mdFence(lines: readonly string[], info = ''): string {
  // One data line is one line of the block: a newline inside it is shown, not obeyed.
  const body = lines.map((l) => l.replace(/\r/g, '\\u000d').replace(/\n/g, '\\u000a')).join('\n');
  const fence = '`'.repeat(Math.max(3, longestRun(body, '`') + 1));
  return `${fence}${info}\n${body}\n${fence}`;
}

export function mdTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

/** A folded section: its items render into one `<details>` block; fewer items may be shown. */
export interface Section {
  title: string;
  items: string[];
  /** The block for the first `items` (all of them, or fewer when the comment is full). */
  render(items: readonly string[], omitted: number): string;
}

export function details(summary: string, body: string, open = false): string {
  return `<details${open ? ' open' : ''}><summary>${summary}</summary>\n\n${body}\n\n</details>`;
}

const size = (s: string): number => new TextEncoder().encode(s).length;

/** Head, then every section that fits (as many of its items as fit when not all do), then a truncation note. */
export function fitSections(head: string, sections: readonly Section[], fullReport: string, limit = COMMENT_LIMIT): string {
  const budget = limit - RESERVE;
  let out = head;
  let left = 0;
  for (const s of sections) {
    if (s.items.length === 0) continue;
    const whole = `\n\n${s.render(s.items, 0)}`;
    if (size(out) + size(whole) <= budget) {
      out += whole;
      continue;
    }
    // The largest number of items that still fits (binary search: a render per step).
    let lo = 0;
    let hi = s.items.length - 1;
    let part = '';
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      const candidate = `\n\n${s.render(s.items.slice(0, mid), s.items.length - mid)}`;
      if (size(out) + size(candidate) <= budget) {
        lo = mid;
        part = candidate;
      } else {
        hi = mid - 1;
      }
    }
    if (lo > 0) out += part;
    left += s.items.length - lo;
  }
  if (left > 0) {
    out += `\n\n> **Truncated:** ${left} item${left === 1 ? '' : 's'} left out to stay under GitHub's ${num(COMMENT_LIMIT)}-character comment limit. ${fullReport}`;
  }
  return `${out}\n`;
}
