/**
 * YAML frontmatter with positions. The block starts at line 1 with `---` and
 * ends at the next line that is exactly `---`. Errors point at the YAML
 * source line inside the file, never at a JSON pointer alone.
 */
import { isMap, isScalar, LineCounter, parseDocument } from 'yaml';
import type { Span, StageResult } from '../types.js';
import { diag, type Diagnostic } from '../diagnostics/diagnostic.js';
import { readSimpleYaml } from './simple-yaml.js';

export interface Frontmatter {
  data: Record<string, unknown> | null;
  keys: Record<string, Span>;
  body: string;
  bodyLine: number;
}

const OPEN = /^---[ \t]*\n/;

/**
 * @param lenient Cursor writes `globs: *.ts` unquoted, which YAML reads as an
 *   alias; for such formats a header that fails as YAML is read line by line
 *   as `key: value` strings, the way Cursor reads it.
 */
export function parseFrontmatter(file: string, text: string, lenient = false): StageResult<Frontmatter> {
  const open = OPEN.exec(text);
  if (!open) return { value: { data: null, keys: {}, body: text, bodyLine: 1 }, diagnostics: [] };
  const rest = text.slice(open[0].length);
  const close = findClose(rest);
  if (!close) {
    return {
      value: { data: null, keys: {}, body: text, bodyLine: 1 },
      diagnostics: [diag('RC2004', { file, range: { start: { line: 1, col: 1 }, end: { line: 1, col: 4 } }, message: 'frontmatter opened with --- is never closed' })],
    };
  }
  const yamlSource = rest.slice(0, close.index);
  let afterClose = close.index + close.length;
  if (rest[afterClose] === '\n') afterClose++;
  const body = rest.slice(afterClose);
  const bodyLine = 2 + countNewlines(rest.slice(0, afterClose));
  const strict = parseYaml(file, yamlSource);
  const parsed = lenient && strict.value.data === null && strict.diagnostics.length > 0 ? readLoosely(file, yamlSource) : strict;
  return { value: { ...parsed.value, body, bodyLine }, diagnostics: parsed.diagnostics };
}

/** The closing `---` line: possibly the very first line (empty frontmatter). */
function findClose(rest: string): { index: number; length: number } | null {
  const m = /(^|\n)---[ \t]*(?=\n|$)/.exec(rest);
  if (!m) return null;
  const lead = (m[1] ?? '').length;
  return { index: m.index + lead, length: m[0].length - lead };
}

function countNewlines(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) === 10) n++;
  return n;
}

/** Line 1 of the YAML source is line 2 of the file. */
const LINE_OFFSET = 1;

function parseYaml(file: string, source: string): StageResult<{ data: Record<string, unknown> | null; keys: Record<string, Span> }> {
  // Most frontmatter is a few `key: value` lines and lists of globs: read without the library.
  const simple = readSimpleYaml(source, LINE_OFFSET);
  if (simple) return { value: simple, diagnostics: [] };
  const diagnostics: Diagnostic[] = [];
  const lineCounter = new LineCounter();
  const doc = parseDocument(source, { lineCounter, uniqueKeys: true, prettyErrors: false, strict: false });
  const spanOf = (from: number, to: number): Span => {
    const a = lineCounter.linePos(from);
    const b = lineCounter.linePos(Math.max(from, to));
    return { start: { line: a.line + LINE_OFFSET, col: a.col }, end: { line: b.line + LINE_OFFSET, col: b.col } };
  };
  // Every duplicate key is its own finding; of the syntax errors only the first
  // is reported: the rest usually cascade from it (one bad indent gives three),
  // and deep nesting can produce dozens whose count depends on the stack size.
  const firstSyntax = doc.errors.find((e) => e.code !== 'DUPLICATE_KEY');
  for (const err of doc.errors) {
    if (err.code !== 'DUPLICATE_KEY' && err !== firstSyntax) continue;
    if (err.code === 'RESOURCE_EXHAUSTION') {
      // The library ran out of stack: where it did depends on the stack's size (the machine, the
      // Node version, the caller), so the finding names the whole frontmatter, in words of its own.
      diagnostics.push(diag('RC2001', { file, range: spanOf(0, 0), message: 'frontmatter nests too deeply to be read' }));
      continue;
    }
    const code = err.code === 'DUPLICATE_KEY' ? 'RC2005' : 'RC2001';
    const message = err.message.split('\n')[0] ?? err.message;
    diagnostics.push(diag(code, { file, range: spanOf(err.pos[0], err.pos[1]), message }));
  }
  if (doc.errors.some((e) => e.code !== 'DUPLICATE_KEY')) return { value: { data: null, keys: {} }, diagnostics };

  const keys = Object.create(null) as Record<string, Span>; // keys come from the file: `__proto__` is a key
  if (doc.contents === null) return { value: { data: {}, keys }, diagnostics };
  if (!isMap(doc.contents)) {
    const range = doc.contents.range ?? [0, 0, 0];
    diagnostics.push(diag('RC2002', { file, range: spanOf(range[0], range[1]), message: 'frontmatter is not a mapping of keys to values' }));
    return { value: { data: null, keys }, diagnostics };
  }
  for (const pair of doc.contents.items) {
    if (isScalar(pair.key) && pair.key.range) keys[String(pair.key.value)] = spanOf(pair.key.range[0], pair.key.range[1]);
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    diagnostics.push(diag('RC2001', { file, range: spanOf(0, 0), message: `frontmatter cannot be read: ${(e as Error).message}` }));
    return { value: { data: null, keys: {} }, diagnostics };
  }
  return { value: { data: data as Record<string, unknown>, keys }, diagnostics };
}

const LOOSE_KEY = /^([A-Za-z_][\w-]*)[ \t]*:[ \t]*/;

/**
 * `key: value` with the value's trailing spaces and tabs dropped: what
 * /^([A-Za-z_][\w-]*)[ \t]*:[ \t]*(.*?)[ \t]*$/ matches, without its
 * quadratic backtracking over a long run of spaces inside the value.
 */
function looseLine(line: string): [string, string, string] | null {
  const k = LOOSE_KEY.exec(line);
  if (!k?.[1]) return null;
  const rest = line.slice(k[0].length);
  if (/[\n\r\u2028\u2029]/.test(rest)) return null;
  let end = rest.length;
  while (end > 0 && (rest[end - 1] === ' ' || rest[end - 1] === '\t')) end--;
  return [line, k[1], rest.slice(0, end)];
}

/** `key: value` lines with scalar values, for formats whose headers are not strict YAML. */
function readLoosely(file: string, source: string): StageResult<{ data: Record<string, unknown> | null; keys: Record<string, Span> }> {
  const data = Object.create(null) as Record<string, unknown>;
  const keys = Object.create(null) as Record<string, Span>; // keys come from the file: `__proto__` is a key
  const lines = source.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = looseLine(lines[i] ?? '');
    if (!m) continue;
    const raw = m[2];
    data[m[1]] = raw === 'true' ? true : raw === 'false' ? false : raw === '' ? null : raw.replace(/^(["'])(.*)\1$/, '$2');
    keys[m[1]] = { start: { line: i + 1 + LINE_OFFSET, col: 1 }, end: { line: i + 1 + LINE_OFFSET, col: m[1].length + 1 } };
  }
  const note = diag('RC2006', { file, range: { start: { line: 2, col: 1 }, end: { line: 2, col: 1 } }, message: 'frontmatter is not valid YAML; read as plain key: value lines, as Cursor reads it' });
  return { value: { data, keys }, diagnostics: [note] };
}
