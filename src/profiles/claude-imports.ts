/**
 * Claude Code's `@path` imports, as observed in 2.1.332 (fixtures i, o, s, t).
 * Claude lexes the file as Markdown and matches `(?:^|\s)@((?:[^\s\\]|\\ )+)`
 * inside each text token; this module rebuilds those text tokens:
 * 1. Blocks: fenced and indented code are skipped, and so are HTML blocks
 *    (`<div>`, `<details>` …) — except comment blocks, whose text outside
 *    the comments is read. Block markers (`>`, list bullets, `#`) are not
 *    text; the lines of one paragraph are read together.
 * 2. Inline: code spans, comments, HTML tags, backslash escapes, emphasis
 *    and strikethrough delimiters that pair up, and link brackets end a text
 *    token, so an `@` right after one of them starts a token (`**@x.md**`,
 *    `` `code`@x.md ``); a lone `*` or `(` is plain text.
 * 3. A target loses a `#fragment`; `\ ` is a space. It must start with `./`,
 *    `~/`, `/`, or a letter, digit, `.`, `_` or `-`.
 * 4. `@~/x` is in the user's home; `@/abs` is absolute (rulec sees only paths
 *    inside the repository); anything else is relative to the importing file.
 * 5. Each imported file becomes its own segment right after its importer,
 *    depth-first, in the order the imports appear; the import line stays.
 * 6. At most `max_depth` hops (4); a file already loaded is not loaded again
 *    (this cuts cycles); a missing file is dropped silently.
 * 7. A target outside the session's cwd (a parent directory, the home
 *    directory, outside the repository) is "external": without the user's
 *    approval it is dropped in non-interactive mode.
 */
import { scanLines } from '../parse/markdown-scan.js';
import { IMPORT_TOKEN, importPath } from '../parse/import-token.js';
import { removeComments, replaceComments } from './html-comments.js';

const BLOCK_TAGS = new Set(('address article aside base basefont blockquote body caption center col colgroup dd details dialog dir div dl dt ' +
  'fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hr html iframe legend li link main menu menuitem ' +
  'nav noframes ol optgroup option p param search section summary table tbody td tfoot th thead title tr track ul').split(' '));
const RAW_TAGS = /^ {0,3}<(script|pre|style|textarea)(?:\s|>|$)/i;
const BLOCK_TAG = /^ {0,3}<\/?([A-Za-z][A-Za-z0-9-]*)(?:\s|\/?>|$)/;
const LONE_TAG = /^ {0,3}(?:<[A-Za-z][A-Za-z0-9-]*(?:\s+[A-Za-z_:][\w.:-]*(?:\s*=\s*(?:[^\s"'=<>`]+|'[^']*'|"[^"]*"))?)*\s*\/?>|<\/[A-Za-z][A-Za-z0-9-]*\s*>)\s*$/;
const LIST_ITEM = /^ {0,3}(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/;
const INLINE_TAG = /<\/?[A-Za-z][A-Za-z0-9-]*(?:\s+[A-Za-z_:][\w.:-]*(?:\s*=\s*(?:[^\s"'=<>`]+|'[^']*'|"[^"]*"))?)*\s*\/?>/g;

/** Columns of leading indentation (a tab counts to the next multiple of 4). */
function indentOf(line: string): number {
  let col = 0;
  for (const ch of line) {
    if (ch === ' ') col++;
    else if (ch === '\t') col += 4 - (col % 4);
    else break;
  }
  return col;
}

/** Block markers (blockquote `>`, list bullet, ATX `#`) in front of a line's text. */
function stripMarkers(line: string): string {
  let rest = line;
  for (;;) {
    const m = /^ {0,3}(?:>[ \t]?|(?:[-*+]|\d{1,9}[.)])(?:[ \t]+|$)|#{1,6}(?:[ \t]+|$))/.exec(rest);
    if (!m || m[0] === '') return rest;
    rest = rest.slice(m[0].length);
  }
}

/** Step 1: the text of every paragraph (and of comment blocks outside their comments), in order. */
function textBlocks(text: string): string[] {
  const lines = scanLines(text.replace(/\r\n?/g, '\n'));
  const out: string[] = [];
  let para: string[] = [];
  let listy = false;
  const flush = (): void => {
    if (para.length > 0) out.push(para.join('\n'));
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const { text: line, inFence } = lines[i]!;
    if (inFence) { flush(); continue; }
    if (line.trim() === '') { flush(); continue; }
    if (para.length === 0 && indentOf(line) >= 4 && !listy) continue;
    if (/^ {0,3}<!--/.test(line)) {
      flush();
      let j = i;
      const block = [line];
      // `-->` cannot span lines: test each line once, not the growing block.
      let closed = line.includes('-->');
      while (!closed && j + 1 < lines.length) closed = block[block.push(lines[++j]!.text) - 1]!.includes('-->');
      // An unclosed comment block is skipped whole; otherwise its text outside the comments counts.
      if (closed) out.push(removeComments(block.join('\n')));
      i = j;
      continue;
    }
    const raw = RAW_TAGS.exec(line);
    const tag = BLOCK_TAG.exec(line)?.[1]?.toLowerCase();
    if (raw || (tag !== undefined && BLOCK_TAGS.has(tag)) || (para.length === 0 && LONE_TAG.test(line))) {
      flush();
      const close = raw ? new RegExp(`</${raw[1]}>`, 'i') : null;
      while (i + 1 < lines.length && (close ? !close.test(lines[i]!.text) : lines[i + 1]!.text.trim() !== '')) i++;
      continue;
    }
    if (LIST_ITEM.test(line)) { flush(); listy = true; } else if (indentOf(line) === 0 && para.length === 0) listy = false;
    if (/^ {0,3}(?:>|#{1,6}(?:[ \t]|$))/.test(line)) flush();
    para.push(stripMarkers(line));
  }
  flush();
  return out;
}

const PUNCT = /[!-/:-@[-`{-~]/;
const blank = (s: string): string => ' '.repeat(s.length);

/** Step 2: `*`, `_` and `~~` runs that open and close emphasis, as [start, length] pairs. */
function pairedDelimiters(s: string): [number, number][] {
  const runs: { at: number; len: number; ch: string; open: boolean; close: boolean }[] = [];
  for (const m of s.matchAll(/\*+|_+|~~+/g)) {
    const at = m.index ?? 0;
    const before = at === 0 ? ' ' : s[at - 1]!;
    const after = s[at + m[0].length] ?? ' ';
    const left = !/\s/.test(after) && (!PUNCT.test(after) || /\s/.test(before) || PUNCT.test(before));
    const right = !/\s/.test(before) && (!PUNCT.test(before) || /\s/.test(after) || PUNCT.test(after));
    const ch = m[0][0]!;
    const open = ch === '_' ? left && (!right || PUNCT.test(before)) : left;
    const close = ch === '_' ? right && (!left || PUNCT.test(after)) : right;
    runs.push({ at, len: m[0].length, ch, open, close });
  }
  const out: [number, number][] = [];
  const stack: typeof runs = [];
  for (const r of runs) {
    let at = r.close ? stack.length - 1 : -1;
    while (at >= 0 && !(stack[at]!.ch === r.ch && stack[at]!.len === r.len)) at--;
    const opener = at >= 0 ? stack[at] : undefined;
    if (opener) {
      stack.length = at;
      out.push([opener.at, opener.len], [r.at, r.len]);
    } else if (r.open) stack.push(r);
  }
  return out;
}

/** Step 2: the paragraph with everything that is not text blanked out. */
function maskInline(text: string): string {
  let s = replaceComments(text, blank);
  s = s.replace(/(`+)(?:(?!\1)[\s\S])*?\1(?!`)/g, blank);
  s = s.replace(INLINE_TAG, blank);
  s = s.replace(/\\[!-/:-@[-`{-~]/g, '  ');
  s = s.replace(/\[((?:[^[\]\\]|\\.)*)\]\(([^()\s]*)(?:\s+"[^"]*")?\)/g, (m, inner: string) => ` ${inner}${blank(m.slice(inner.length + 1))}`);
  // The paired runs blanked in slices (they never overlap: each run is one side of one pair), not by
  // splitting the paragraph into one string per character.
  const runs = pairedDelimiters(s).sort((a, b) => a[0] - b[0]);
  if (runs.length === 0) return s;
  const parts: string[] = [];
  let from = 0;
  for (const [at, len] of runs) {
    parts.push(s.slice(from, at), ' '.repeat(len));
    from = at + len;
  }
  parts.push(s.slice(from));
  return parts.join('');
}

/** Step 3: whether Claude takes `target` (fragment stripped, escapes read) as a path. */
function accepted(target: string): boolean {
  if (target.startsWith('./') || target.startsWith('~/') || (target.startsWith('/') && target !== '/')) return true;
  return !target.startsWith('@') && !/^[#%^&*()]+/.test(target) && /^[a-zA-Z0-9._-]/.test(target);
}

/** Import targets in `text`, in order of appearance. */
export function claudeImportTargets(text: string): string[] {
  const out: string[] = [];
  for (const block of textBlocks(text)) {
    for (const hit of maskInline(block).matchAll(IMPORT_TOKEN)) {
      let target = hit[1] ?? '';
      const hash = target.indexOf('#');
      if (hash >= 0) target = target.slice(0, hash);
      target = importPath(target);
      if (target !== '' && accepted(target)) out.push(target);
    }
  }
  return out;
}

export type ImportPlace =
  | { kind: 'repo'; path: string }
  | { kind: 'home'; path: string }
  | { kind: 'absolute'; path: string };

/** Normalise a posix path that may climb with `..`; a path climbing above '' keeps its leading `../`. */
export function normalisePosix(path: string): string {
  const out: string[] = [];
  for (const seg of path.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..' && out.length > 0 && out[out.length - 1] !== '..') out.pop();
    else out.push(seg);
  }
  return out.join('/');
}

/** Where an import target points, from a file in `fromDir` (repo-relative, or home-relative when `fromHome`). */
export function placeImport(target: string, fromDir: string, fromHome: boolean): ImportPlace {
  if (target.startsWith('~/')) return { kind: 'home', path: normalisePosix(target.slice(2)) };
  if (target.startsWith('/')) return { kind: 'absolute', path: target };
  const joined = normalisePosix(fromDir === '' ? target : `${fromDir}/${target}`);
  return fromHome ? { kind: 'home', path: joined } : { kind: 'repo', path: joined };
}

/** True when repo path `path` lies inside directory `dir` ('' = repo root) and does not climb out of the repo. */
export function insideDir(path: string, dir: string): boolean {
  if (path.startsWith('../') || path === '..') return false;
  return dir === '' || path.startsWith(`${dir}/`);
}
