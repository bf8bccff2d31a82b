/**
 * Code frames show the reported column (issue #10.6, #10.10): long lines are
 * windowed around the range with `…` on cut sides, so the caret is always
 * under the reported text; wide characters take two cells, combining marks
 * none, control characters show escaped; columns are UTF-16 code units, as in
 * every Diagnostic.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeFrame, FRAME_WIDTH } from '../../src/report/code-frame.js';
import { formatDiagnostic } from '../../src/report/text.js';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';

/** Split a frame into its shown text and the caret cells. */
function parse([row, carets]: [string, string]): { shown: string; caret: number; width: number } {
  const bar = row.indexOf(' | ');
  const shown = row.slice(bar + 3);
  const marks = carets.slice(bar + 3);
  return { shown, caret: marks.indexOf('^'), width: marks.trim().length };
}

/** Terminal cells of each character of a shown row (an independent, small width table). */
function cellsOf(shown: string): { ch: string; cell: number }[] {
  const out: { ch: string; cell: number }[] = [];
  let cell = 0;
  for (const ch of shown) {
    out.push({ ch, cell });
    cell += /[\u0300-\u036f]/.test(ch) ? 0 : /[語😀]/u.test(ch) ? 2 : 1;
  }
  return out;
}

const charAtCell = (shown: string, cell: number): string | undefined =>
  cellsOf(shown).find((c) => c.cell === cell && !/[\u0300-\u036f]/.test(c.ch))?.ch;

describe('code frames', () => {
  it('shows a short line whole, with the caret under the range', () => {
    expect(codeFrame('use pnpm here', 3, { start: 4, end: 8 })).toEqual(['  3 | use pnpm here', '    |     ^^^^']);
  });

  it('keeps the caret under the reported text past column 150 (the reported bug)', () => {
    const line = `${'word '.repeat(60)}TARGET${' tail'.repeat(60)}`;
    const start = line.indexOf('TARGET');
    const { shown, caret, width } = parse(codeFrame(line, 1, { start, end: start + 6 }));
    expect(shown.startsWith('…')).toBe(true);
    expect(shown.endsWith('…')).toBe(true);
    expect(shown.slice(caret, caret + 6)).toBe('TARGET');
    expect(width).toBe(6);
    expect([...shown].length).toBeLessThanOrEqual(FRAME_WIDTH);
  });

  it('cuts only the right side when the range is near the start, only the left near the end', () => {
    const line = 'x'.repeat(500);
    expect(parse(codeFrame(line, 1, { start: 2, end: 3 })).shown).toMatch(/^x+…$/);
    expect(parse(codeFrame(line, 1, { start: 498, end: 499 })).shown).toMatch(/^…x+$/);
  });

  it('puts the caret after the last character for a range at the end of the line', () => {
    expect(codeFrame('abc', 1, { start: 3, end: 3 })).toEqual(['  1 | abc', '    |    ^']);
  });

  it('counts wide characters as two cells and combining marks as none', () => {
    const line = '語語 e\u0301 😀 target';
    const start = line.indexOf('target');
    const { shown, caret } = parse(codeFrame(line, 1, { start, end: start + 6 }));
    expect(charAtCell(shown, caret)).toBe('t');
  });

  it('shows control characters escaped, and the caret still under the range', () => {
    const line = `a\u001b[8mhidden\tb`;
    const frame = codeFrame(line, 1, { start: line.indexOf('hidden'), end: line.indexOf('hidden') + 6 });
    expect(frame[0]).toBe('  1 | a\\u001b[8mhidden b');
    const { shown, caret } = parse(frame);
    expect(shown.slice(caret, caret + 6)).toBe('hidden');
  });

  it('handles a range inside a multi-megabyte line without reading all of it', () => {
    const line = `${'a'.repeat(2_000_000)}NEEDLE${'b'.repeat(2_000_000)}`;
    const start = 2_000_000;
    const { shown, caret } = parse(codeFrame(line, 1, { start, end: start + 6 }));
    expect(shown.slice(caret, caret + 6)).toBe('NEEDLE');
  });

  it('the caret is under the start of the reported text, for any line and range', () => {
    const tokens = ['a', 'b', ' ', '語', '😀', '\t', 'e\u0301', '\u001b', 'xyz'];
    const line = fc.array(fc.constantFrom(...tokens), { minLength: 1, maxLength: 400 });
    fc.assert(fc.property(line, fc.nat(), fc.nat(30), (parts, at, len) => {
      const i = at % parts.length;
      const start = parts.slice(0, i).join('').length;
      const end = parts.slice(0, Math.min(parts.length, i + len + 1)).join('').length;
      const text = parts.join('');
      const { shown, caret, width } = parse(codeFrame(text, 7, { start, end }));
      const first = parts[i]!;
      const expected = first === '\t' ? ' ' : first === '\u001b' ? '\\' : [...first][0];
      expect(charAtCell(shown, caret)).toBe(expected);
      expect(width).toBeGreaterThanOrEqual(1);
      expect(cellsOf(shown).at(-1)!.cell).toBeLessThan(FRAME_WIDTH + 6);
    }), { numRuns: 400 });
  });
});

describe('the text reporter', () => {
  const d: Diagnostic = {
    code: 'RC6201', severity: 'error', file: 'docs/\u001b]0;pwned\u0007.md',
    range: { start: { line: 1, col: 3 }, end: { line: 1, col: 9 } },
    message: 'download piped into a shell: curl \u202E x',
    hint: 'line one\nline two',
  };
  it('escapes control characters in the path, message and hint, and keeps one diagnostic per line', () => {
    const out = formatDiagnostic(d, () => ['a\u001b]52;c;x\u0007 curl | sh']);
    expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(out.split('\n')[0]).toBe('docs/\\u001b]0;pwned\\u0007.md:1:3 - error RC6201: download piped into a shell: curl \\u202e x');
    expect(out).toContain('  hint: line one\\u000aline two');
  });
});
