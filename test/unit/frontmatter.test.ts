import { describe, expect, it } from 'vitest';
import { parseFrontmatter, type Frontmatter } from '../../src/parse/frontmatter.js';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';
import type { Span, StageResult } from '../../src/types.js';

const span = (line: number, col: number, endLine: number, endCol: number): Span => ({ start: { line, col }, end: { line: endLine, col: endCol } });

const RC2002_HINT = 'frontmatter must be key: value pairs between two --- lines';
const RC2004_HINT = 'close the frontmatter with a line containing only ---';
const RC2006_HINT = 'quote glob values: globs: "*.ts"';
const lenientNote = (file: string): Diagnostic => ({
  code: 'RC2006',
  severity: 'info',
  file,
  range: span(2, 1, 2, 1),
  message: 'frontmatter is not valid YAML; read as plain key: value lines, as Cursor reads it',
  hint: RC2006_HINT,
});

describe('parseFrontmatter', () => {
  it.each<[string, string, StageResult<Frontmatter>]>([
    ['no frontmatter', '# Title\nbody\n', { value: { data: null, keys: {}, body: '# Title\nbody\n', bodyLine: 1 }, diagnostics: [] }],
    ['a --- that is not on line 1', '\n---\na: 1\n---\n', { value: { data: null, keys: {}, body: '\n---\na: 1\n---\n', bodyLine: 1 }, diagnostics: [] }],
    ['four dashes', '----\na: 1\n---\n', { value: { data: null, keys: {}, body: '----\na: 1\n---\n', bodyLine: 1 }, diagnostics: [] }],
    ['empty frontmatter', '---\n---\n', { value: { data: {}, keys: {}, body: '', bodyLine: 3 }, diagnostics: [] }],
    ['empty frontmatter then body', '---\n---\nbody\n', { value: { data: {}, keys: {}, body: 'body\n', bodyLine: 3 }, diagnostics: [] }],
    ['blank frontmatter', '---\n\n---\nx', { value: { data: {}, keys: {}, body: 'x', bodyLine: 4 }, diagnostics: [] }],
    ['comment-only frontmatter', '---\n# c\n---\n', { value: { data: {}, keys: {}, body: '', bodyLine: 4 }, diagnostics: [] }],
    [
      'a mapping, with positions of its keys',
      '---\ntitle: x\npaths:\n  - "src/**"\n---\n# H\n',
      {
        value: { data: { title: 'x', paths: ['src/**'] }, keys: { title: span(2, 1, 2, 6), paths: span(3, 1, 3, 6) }, body: '# H\n', bodyLine: 6 },
        diagnostics: [],
      },
    ],
    [
      'trailing blanks on the fence lines',
      '---  \na: 1\n---\t\nx',
      { value: { data: { a: 1 }, keys: { a: span(2, 1, 2, 2) }, body: 'x', bodyLine: 4 }, diagnostics: [] },
    ],
    [
      'closing fence at end of file',
      '---\na: 1\n---',
      { value: { data: { a: 1 }, keys: { a: span(2, 1, 2, 2) }, body: '', bodyLine: 3 }, diagnostics: [] },
    ],
    [
      'anchors and aliases',
      '---\na: &x 1\nb: *x\n---\n',
      { value: { data: { a: 1, b: 1 }, keys: { a: span(2, 1, 2, 2), b: span(3, 1, 3, 2) }, body: '', bodyLine: 5 }, diagnostics: [] },
    ],
    [
      'a list (RC2002)',
      '---\n- a\n- b\n---\nbody\n',
      {
        value: { data: null, keys: {}, body: 'body\n', bodyLine: 5 },
        diagnostics: [{ code: 'RC2002', severity: 'error', file: 'f.md', range: span(2, 1, 4, 1), message: 'frontmatter is not a mapping of keys to values', hint: RC2002_HINT }],
      },
    ],
    [
      'a scalar (RC2002)',
      '---\nhello\n---\nbody\n',
      {
        value: { data: null, keys: {}, body: 'body\n', bodyLine: 4 },
        diagnostics: [{ code: 'RC2002', severity: 'error', file: 'f.md', range: span(2, 1, 2, 6), message: 'frontmatter is not a mapping of keys to values', hint: RC2002_HINT }],
      },
    ],
    [
      'bad YAML (RC2001) positioned on its file line',
      '---\na: 1\nb: c: d\n---\nbody\n',
      {
        value: { data: null, keys: {}, body: 'body\n', bodyLine: 5 },
        diagnostics: [{ code: 'RC2001', severity: 'error', file: 'f.md', range: span(3, 4, 3, 5), message: 'Nested mappings are not allowed in compact mappings' }],
      },
    ],
    [
      'tab indentation (RC2001)',
      '---\na: 1\n\tb: 2\n---\n',
      {
        value: { data: null, keys: {}, body: '', bodyLine: 5 },
        diagnostics: [{ code: 'RC2001', severity: 'error', file: 'f.md', range: span(3, 1, 3, 2), message: 'Tabs are not allowed as indentation' }],
      },
    ],
    [
      'an unresolved alias in a strict format (RC2001)',
      '---\nglobs: *.ts\n---\n',
      {
        value: { data: null, keys: {}, body: '', bodyLine: 4 },
        diagnostics: [{ code: 'RC2001', severity: 'error', file: 'f.md', range: span(2, 1, 2, 1), message: 'frontmatter cannot be read: Unresolved alias (the anchor must be set before the alias): .ts' }],
      },
    ],
    [
      'duplicate keys (RC2005), last value kept',
      '---\na: 1\na: 2\n---\nbody\n',
      {
        value: { data: { a: 2 }, keys: { a: span(3, 1, 3, 2) }, body: 'body\n', bodyLine: 5 },
        diagnostics: [{ code: 'RC2005', severity: 'error', file: 'f.md', range: span(3, 1, 3, 2), message: 'Map keys must be unique' }],
      },
    ],
    [
      'duplicate keys and bad YAML',
      '---\na: 1\na: 2\nb: c: d\n---\n',
      {
        value: { data: null, keys: {}, body: '', bodyLine: 6 },
        diagnostics: [
          { code: 'RC2005', severity: 'error', file: 'f.md', range: span(3, 1, 3, 2), message: 'Map keys must be unique' },
          { code: 'RC2001', severity: 'error', file: 'f.md', range: span(4, 4, 4, 5), message: 'Nested mappings are not allowed in compact mappings' },
        ],
      },
    ],
    [
      'unterminated (RC2004): the whole text is body',
      '---\na: 1\nbody\n',
      {
        value: { data: null, keys: {}, body: '---\na: 1\nbody\n', bodyLine: 1 },
        diagnostics: [{ code: 'RC2004', severity: 'error', file: 'f.md', range: span(1, 1, 1, 4), message: 'frontmatter opened with --- is never closed', hint: RC2004_HINT }],
      },
    ],
    [
      'a closing fence with text after it does not close',
      '---\na: 1\n--- x\n',
      {
        value: { data: null, keys: {}, body: '---\na: 1\n--- x\n', bodyLine: 1 },
        diagnostics: [{ code: 'RC2004', severity: 'error', file: 'f.md', range: span(1, 1, 1, 4), message: 'frontmatter opened with --- is never closed', hint: RC2004_HINT }],
      },
    ],
  ])('%s', (_name, text, expected) => {
    expect(parseFrontmatter('f.md', text)).toEqual(expected);
  });

  it.each<[string, string, StageResult<Frontmatter>]>([
    [
      'unquoted cursor globs are read line by line (RC2006)',
      '---\ndescription: x\nglobs: *.ts\nalwaysApply: false\n---\nbody\n',
      {
        value: {
          data: { description: 'x', globs: '*.ts', alwaysApply: false },
          keys: { description: span(2, 1, 2, 12), globs: span(3, 1, 3, 6), alwaysApply: span(4, 1, 4, 12) },
          body: 'body\n',
          bodyLine: 6,
        },
        diagnostics: [lenientNote('f.mdc')],
      },
    ],
    [
      'lenient values: quotes stripped, booleans, empty as null, comments skipped',
      '---\ndescription: "a: b"\nglobs: *.ts, *.tsx\nalwaysApply: true\nempty:\n# comment\n---\n',
      {
        value: {
          data: { description: 'a: b', globs: '*.ts, *.tsx', alwaysApply: true, empty: null },
          keys: { description: span(2, 1, 2, 12), globs: span(3, 1, 3, 6), alwaysApply: span(4, 1, 4, 12), empty: span(5, 1, 5, 6) },
          body: '',
          bodyLine: 8,
        },
        diagnostics: [lenientNote('f.mdc')],
      },
    ],
    [
      'valid YAML is read strictly',
      '---\nglobs: "*.ts"\n---\n',
      { value: { data: { globs: '*.ts' }, keys: { globs: span(2, 1, 2, 6) }, body: '', bodyLine: 4 }, diagnostics: [] },
    ],
  ])('lenient: %s', (_name, text, expected) => {
    expect(parseFrontmatter('f.mdc', text, true)).toEqual(expected);
  });
});

describe('frontmatter nested deeper than the YAML library can follow', () => {
  // The library reports where its stack ran out, and that depends on how much stack its caller
  // left: the finding must not (it reaches reports and golden outputs).
  const deep = `---\n${Array.from({ length: 2000 }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n')} x\n---\n\n# Deep\n`;
  const atDepth = (depth: number): StageResult<Frontmatter> => (depth === 0 ? parseFrontmatter('deep.md', deep, false) : atDepth(depth - 1));

  it('is one RC2001 at the start of the frontmatter, whatever stack is left', () => {
    const expected: Diagnostic = { code: 'RC2001', severity: 'error', file: 'deep.md', range: span(2, 1, 2, 1), message: 'frontmatter nests too deeply to be read' };
    for (const depth of [0, 500, 2000]) {
      const r = atDepth(depth);
      expect(r.value.data).toBeNull();
      expect(r.diagnostics, `called ${depth} frames deep`).toEqual([expected]);
    }
  });
});
