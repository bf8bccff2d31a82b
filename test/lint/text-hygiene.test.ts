import { describe, expect, it } from 'vitest';
import { TEXT_HYGIENE_RULES, lineEndings } from '../../src/validate/lint/text-hygiene.js';
import { inputFromBytes, inputFromText } from './lint-input.js';

const run = (input: ReturnType<typeof inputFromText>) =>
  TEXT_HYGIENE_RULES.flatMap((r) => [...r.check(input)]);
const bytes = (s: string) => new TextEncoder().encode(s);

describe('text hygiene', () => {
  it('warns about an empty file', () => {
    expect(run(inputFromText(' \n\t\n'))).toEqual([{
      code: 'RC6501', severity: 'warning', file: 'AGENTS.md',
      range: { start: { line: 1, col: 1 }, end: { line: 1, col: 1 } },
      message: 'file is empty or whitespace only', hint: 'delete the file or write its instructions',
    }]);
  });

  it('warns about frontmatter with no body', () => {
    const input = inputFromText('---\nalwaysApply: true\n---\n', 'x.mdc');
    input.doc.body = '';
    expect(run(input).map((d) => d.message)).toEqual(['file has frontmatter but no instructions']);
  });

  it('warns about mixed line endings at the first odd line', () => {
    expect(run(inputFromBytes('AGENTS.md', bytes('a\r\nb\r\nc\nd\r\n')))).toEqual([{
      code: 'RC6502', severity: 'warning', file: 'AGENTS.md',
      range: { start: { line: 3, col: 2 }, end: { line: 3, col: 2 } },
      message: 'mixed line endings (3 CRLF, 1 LF); the first LF ends line 3',
      hint: 'normalise the file to LF (or set a .gitattributes eol rule)',
    }]);
  });

  it('accepts consistent CRLF, LF and a missing final newline', () => {
    expect(run(inputFromBytes('A.md', bytes('a\r\nb\r\nc')))).toEqual([]);
    expect(run(inputFromBytes('A.md', bytes('a\nb\nc\n')))).toEqual([]);
  });

  it('counts bare CR as its own kind', () => {
    expect(lineEndings(bytes('a\rb\nc'))).toEqual({ counts: { CRLF: 0, LF: 1, CR: 1 }, odd: 'LF', oddLine: 2 });
  });

  it('reports NUL bytes as an error at the first one', () => {
    expect(run(inputFromBytes('A.md', bytes('ok\nab\u0000c\u0000')))).toEqual([{
      code: 'RC6503', severity: 'error', file: 'A.md',
      range: { start: { line: 2, col: 3 }, end: { line: 2, col: 4 } },
      message: 'file contains 2 NUL bytes', hint: 're-save the file as plain UTF-8 text',
    }]);
  });
});
