/**
 * The frontmatter most instruction files carry, read without the YAML
 * library: `key: value` lines and block lists of scalars,
 *
 *   paths:
 *     - "packages/api/**"
 *   applyTo: '**\/*.ts'
 *   alwaysApply: false
 *
 * The library costs about a quarter of a millisecond per document (0.4 s of
 * a build over 1,500 rule files, and as much again in the agent profiles).
 * Only a shape whose meaning is certain is read here; anything else gives
 * null and goes to the library (frontmatter.ts): comments, tabs, CR, blank
 * lines, trailing spaces, escapes, non-ASCII, flow collections, anchors,
 * aliases, tags, block scalars, continuation lines, nested collections,
 * duplicate keys, and every plain scalar that YAML 1.2's core schema could
 * read as something other than a string, but true and false. A property test
 * (test/unit/simple-yaml.test.ts) checks that whatever this reads, the
 * library reads the same data and key positions, without an error.
 */
import type { Span } from '../types.js';

export interface SimpleYaml {
  data: Record<string, unknown>;
  keys: Record<string, Span>;
}

/** A top-level key at column 1, and what follows its colon. */
const KEY_LINE = /^([A-Za-z_][A-Za-z0-9_-]*):(?: (.*))?$/;
/** A block list item, at any indentation. */
const ITEM_LINE = /^( *)- (.*)$/;
const DOUBLE = /^"([\x20\x21\x23-\x5b\x5d-\x7e]*)"$/;
const SINGLE = /^'([\x20-\x26\x28-\x7e]*)'$/;
/**
 * A plain scalar that can only be a string or a boolean: it starts with a letter, `_` or `/` (never
 * a number, a sign, `.inf`, `~` or an indicator: `*.ts` is an alias), and holds no `:` (a mapping)
 * and no `#` (a comment) anywhere.
 */
const PLAIN = /^[A-Za-z_/][\x20-\x7e]*$/;
const PLAIN_UNSAFE = /[:#]|^(?:[Nn]ull|NULL)$/;
/** Keys the core schema reads as null or a boolean. */
const NOT_A_STRING_KEY = /^(?:[Nn]ull|NULL|[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const TRUE = /^(?:[Tt]rue|TRUE)$/;
const FALSE = /^(?:[Ff]alse|FALSE)$/;

/** The frontmatter's data and key positions when it has the simple shape; null otherwise. */
export function readSimpleYaml(source: string, lineOffset: number): SimpleYaml | null {
  if (source === '' || /[\t\r]| \n| $/.test(source)) return null;
  const lines = source.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const data: Record<string, unknown> = {};
  const keys = Object.create(null) as Record<string, Span>;
  for (let i = 0; i < lines.length; i++) {
    const m = KEY_LINE.exec(lines[i] as string);
    const key = m?.[1];
    if (m === null || key === undefined || key === '__proto__' || NOT_A_STRING_KEY.test(key) || key in keys) return null;
    const line = i + 1 + lineOffset;
    keys[key] = { start: { line, col: 1 }, end: { line, col: key.length + 1 } };
    if (m[2] !== undefined && m[2] !== '') {
      const value = scalar(m[2]);
      if (value === undefined) return null;
      data[key] = value;
      continue;
    }
    const items: unknown[] = [];
    let indent: string | undefined;
    for (let it = ITEM_LINE.exec(lines[i + 1] ?? ''); it !== null; it = ITEM_LINE.exec(lines[i + 1] ?? '')) {
      if (indent !== undefined && it[1] !== indent) return null;
      indent = it[1];
      const value = scalar(it[2] as string);
      if (value === undefined) return null;
      items.push(value);
      i++;
    }
    data[key] = items.length > 0 ? items : null;
  }
  return { data, keys };
}

/** A scalar's value, or undefined when it is not one this reader is sure of. */
function scalar(text: string): string | boolean | undefined {
  const q = DOUBLE.exec(text) ?? SINGLE.exec(text);
  if (q) return q[1];
  if (!PLAIN.test(text) || PLAIN_UNSAFE.test(text)) return undefined;
  if (TRUE.test(text)) return true;
  if (FALSE.test(text)) return false;
  return text;
}
