/**
 * The frontmatter fast path (src/parse/simple-yaml.ts) against the YAML
 * library it stands in for: whatever it reads, the library reads the same
 * data and the same key positions, without an error; whatever it is not sure
 * of, it leaves to the library.
 */
import fc from 'fast-check';
import { isMap, isScalar, LineCounter, parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { readSimpleYaml } from '../../src/parse/simple-yaml.js';
import { parseFrontmatter } from '../../src/parse/frontmatter.js';

/** What the library reads: data and key spans (lines offset by one, as in a file), or 'error'. */
function library(source: string): { data: unknown; keys: Record<string, unknown> } | 'error' {
  const lineCounter = new LineCounter();
  const doc = parseDocument(source, { lineCounter, uniqueKeys: true, prettyErrors: false, strict: false });
  if (doc.errors.length > 0 || doc.warnings.length > 0 || !isMap(doc.contents)) return 'error';
  const keys = Object.create(null) as Record<string, unknown>;
  for (const pair of doc.contents.items) {
    if (!isScalar(pair.key) || !pair.key.range) return 'error';
    const a = lineCounter.linePos(pair.key.range[0]);
    const b = lineCounter.linePos(pair.key.range[1]);
    keys[String(pair.key.value)] = { start: { line: a.line + 1, col: a.col }, end: { line: b.line + 1, col: b.col } };
  }
  return { data: doc.toJS({ maxAliasCount: 100 }), keys };
}

const KEYS = ['paths', 'applyTo', 'description', 'globs', 'alwaysApply', 'a-b', '_x', 'true', 'Null', 'FALSE', 'k k', '__proto__', '1a', 'x'];
const CHARS = ['a', 'Z', 'e', 'n', 'u', 'l', 't', 'r', 'T', 'F', 'N', '0', '1', '.', '-', '+', '*', '/', ':', '#', ' ', '"', "'", '\\', '[', ']', '{',
  '}', ',', '&', '!', '|', '>', '%', '@', '`', '~', '?', '\t', 'é', '_'];
const WORDS = ['true', 'False', 'TRUE', 'null', 'NULL', '~', '0x1F', '0o17', '1e3', '.inf', '.NaN', '-1', '+2', '3.5', '2-space', 'yes', 'on',
  '"**/*.ts"', "'**'", '*.ts', 'src/**', 'packages/api/**', '"a\\"b"', "'it''s'", '"é"', '[a, b]', '{a: 1}', '&x a', '!!str 1', '|', '>-'];

const value = fc.oneof(fc.constantFrom(...WORDS), fc.array(fc.constantFrom(...CHARS), { maxLength: 12 }).map((c) => c.join('')));
const line = fc.oneof(
  fc.tuple(fc.constantFrom(...KEYS), fc.constantFrom(': ', ':', ':  ', ' : ', ': '), value).map(([k, s, v]) => `${k}${s}${v}`),
  fc.tuple(fc.constantFrom(...KEYS), fc.constantFrom(':', ': ')).map(([k, s]) => `${k}${s}`),
  fc.tuple(fc.constantFrom('', ' ', '  ', '   ', '\t'), fc.constantFrom('- ', '-', '-  ', '- - '), value).map(([i, d, v]) => `${i}${d}${v}`),
  fc.constantFrom('', '# comment', '  continued', '---', '...'),
);
const chaotic = fc.tuple(fc.array(line, { maxLength: 7 }), fc.constantFrom('\n', '\n', '\r\n')).map(([ls, eol]) => (ls.length === 0 ? '' : `${ls.join(eol)}${eol}`));
// Mostly the simple shape, with the odd character that may or may not leave it.
const SAFE = ['a', 'Z', 'e', 'n', 'u', 'l', 't', 'r', 'T', 'F', 'N', '0', '1', '.', '-', '*', '/', ' ', '_', '[', ']', ',', '{', '}', '!', '&', '|', '>',
  '%', '@', '`', '?', '\\', '"', "'", '~', '+'];
const word = fc.tuple(fc.constantFrom('a', 'Z', '_', '/', 'p', 't', 'f', 'N', '*', '"', "'", '1', '-', '.', '~', '!', '&'),
  fc.array(fc.constantFrom(...SAFE), { maxLength: 10 })).map(([h, t]) => `${h}${t.join('')}`);
const scalarText = fc.oneof(word, word.map((w) => `"${w}"`), word.map((w) => `'${w}'`), fc.constantFrom(...WORDS));
const entry = fc.oneof(
  fc.tuple(fc.constantFrom(...KEYS), scalarText).map(([k, v]) => `${k}: ${v}`),
  fc.tuple(fc.constantFrom(...KEYS), fc.constantFrom('', ' ', '  ', '    '), fc.array(scalarText, { maxLength: 3 }))
    .map(([k, ind, items]) => [`${k}:`, ...items.map((v) => `${ind}- ${v}`)].join('\n')),
);
const simpleShape = fc.array(entry, { minLength: 1, maxLength: 4 }).map((es) => `${es.join('\n')}\n`);
const source = fc.oneof({ arbitrary: simpleShape, weight: 3 }, { arbitrary: chaotic, weight: 1 });

describe('readSimpleYaml', () => {
  it('reads what the library reads, whenever it reads anything', () => {
    let read = 0;
    fc.assert(fc.property(source, (src) => {
      const simple = readSimpleYaml(src, 1);
      if (simple === null) return;
      read++;
      const lib = library(src);
      expect(lib, src).not.toBe('error');
      if (lib === 'error') return;
      expect(simple.data, src).toStrictEqual(lib.data);
      expect(simple.keys, src).toStrictEqual(lib.keys);
    }), { numRuns: 3000 });
    // The generator reaches the fast path, not only the library.
    expect(read).toBeGreaterThan(100);
  });

  it.each([
    ['paths:\n  - "packages/api/**"\n  - "**/*.test.ts"\n', { paths: ['packages/api/**', '**/*.test.ts'] }],
    ["applyTo: '**/*.ts'\n", { applyTo: '**/*.ts' }],
    ['description: Rules for the API layer\nalwaysApply: false\n', { description: 'Rules for the API layer', alwaysApply: false }],
    ['paths:\n- src/**\n- lib/**\nglobs: "*.md"\n', { paths: ['src/**', 'lib/**'], globs: '*.md' }],
    ['paths:\n', { paths: null }],
  ])('reads the common shape %j itself', (src, data) => {
    expect(readSimpleYaml(src, 1)?.data).toStrictEqual(data);
  });

  it.each(['globs: *.ts\n', 'a: 1\n', 'a: null\n', 'a: x # c\n', 'a: x\na: y\n', 'a:\n  - x\n    - y\n', 'a: "\\t"\n', 'a: x\r\n', 'a:  x\n', 'a: x \n'])(
    'leaves %j to the library', (src) => {
      expect(readSimpleYaml(src, 1)).toBeNull();
    });

  it('gives parseFrontmatter the library\'s data and key positions, in the file\'s lines', () => {
    const yaml = 'paths:\n  - "packages/**"\ndescription: API rules\n';
    expect(readSimpleYaml(yaml, 1)).not.toBeNull();
    const r = parseFrontmatter('r.md', `---\n${yaml}---\n# Body\n`);
    const lib = library(yaml);
    if (lib === 'error') throw new Error('the library refused it');
    expect(r.diagnostics).toEqual([]);
    expect(r.value.data).toStrictEqual(lib.data);
    expect(r.value.keys).toStrictEqual(lib.keys);
    expect(r.value.keys.description).toEqual({ start: { line: 4, col: 1 }, end: { line: 4, col: 12 } });
    expect(r.value.bodyLine).toBe(6);
  });
});
