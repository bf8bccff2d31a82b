import { describe, expect, it } from 'vitest';
import { BUNDLE_CODES, bundleDiag } from '../../src/diagnostics/catalogue-bundle.js';
import fc from 'fast-check';
import { countBySeverity, diag, hasErrors, sortDiagnostics, spanAt, type Diagnostic } from '../../src/diagnostics/diagnostic.js';

function d(file: string, line: number, col: number, code: string, message = 'm', over: Partial<Diagnostic> = {}): Diagnostic {
  return { code, severity: 'error', file, range: spanAt(line, col), message, ...over };
}

describe('sortDiagnostics', () => {
  it('orders by file (code units), line, col, code, message', () => {
    const list = [
      d('b.md', 1, 1, 'RC1001'),
      d('a.md', 10, 1, 'RC1001'),
      d('a.md', 2, 5, 'RC1001'),
      d('a.md', 2, 1, 'RC2001', 'z'),
      d('a.md', 2, 1, 'RC2001', 'a'),
      d('a.md', 2, 1, 'RC1002'),
      d('', 1, 1, 'RC9001'),
      d('B.md', 1, 1, 'RC1001'),
      d('managed:x.md', 1, 1, 'RC1001'),
      d('é.md', 1, 1, 'RC1001'),
      d('a/b.md', 1, 1, 'RC1001'),
      d('a.md', 2, 10, 'RC1001'),
    ];
    expect(sortDiagnostics(list)).toEqual([
      d('', 1, 1, 'RC9001'),
      d('B.md', 1, 1, 'RC1001'),
      d('a.md', 2, 1, 'RC1002'),
      d('a.md', 2, 1, 'RC2001', 'a'),
      d('a.md', 2, 1, 'RC2001', 'z'),
      d('a.md', 2, 5, 'RC1001'),
      d('a.md', 2, 10, 'RC1001'),
      d('a.md', 10, 1, 'RC1001'),
      d('a/b.md', 1, 1, 'RC1001'),
      d('b.md', 1, 1, 'RC1001'),
      d('managed:x.md', 1, 1, 'RC1001'),
      d('é.md', 1, 1, 'RC1001'),
    ]);
  });

  it('drops duplicates, keeping one of each finding, and does not modify its input', () => {
    const list = [d('a.md', 1, 1, 'RC1001'), d('a.md', 1, 1, 'RC1001'), d('a.md', 1, 1, 'RC1001', 'other'), d('a.md', 1, 1, 'RC1001')];
    const copy = structuredClone(list);
    expect(sortDiagnostics(list)).toEqual([d('a.md', 1, 1, 'RC1001'), d('a.md', 1, 1, 'RC1001', 'other')]);
    expect(list).toEqual(copy);
    expect(sortDiagnostics([])).toEqual([]);
  });

  it('keeps findings that differ only in file, line, col, code or message', () => {
    const list = [d('a.md', 1, 1, 'RC1001'), d('b.md', 1, 1, 'RC1001'), d('a.md', 2, 1, 'RC1001'), d('a.md', 1, 2, 'RC1001'), d('a.md', 1, 1, 'RC1002'), d('a.md', 1, 1, 'RC1001', 'n')];
    expect(sortDiagnostics(list)).toHaveLength(6);
  });

  const diagnostic: fc.Arbitrary<Diagnostic> = fc
    .record({
      file: fc.constantFrom('', 'a.md', 'a/b.md', 'B.md', 'é.md', 'managed:x.md'),
      line: fc.integer({ min: 1, max: 4 }),
      col: fc.integer({ min: 1, max: 4 }),
      code: fc.constantFrom('RC1001', 'RC2001', 'RC6101'),
      message: fc.constantFrom('a', 'b', 'B'),
    })
    .map(({ file, line, col, code, message }) => d(file, line, col, code, message, { severity: code === 'RC6101' ? 'warning' : 'error' }));
  const key = (x: Diagnostic): string => JSON.stringify([x.file, x.range.start.line, x.range.start.col, x.code, x.message]);

  it('property: output is sorted, duplicate-free, covers every input finding and ignores input order', () => {
    fc.assert(
      fc.property(fc.array(diagnostic, { maxLength: 30 }).chain((l) => fc.tuple(fc.constant(l), fc.shuffledSubarray(l, { minLength: l.length, maxLength: l.length }))), ([list, shuffled]) => {
        const out = sortDiagnostics(list);
        const keys = out.map(key);
        expect(new Set(keys).size).toBe(keys.length);
        expect([...new Set(list.map(key))].sort()).toEqual([...keys].sort());
        for (let i = 1; i < out.length; i++) {
          const a = out[i - 1] as Diagnostic;
          const b = out[i] as Diagnostic;
          const order = a.file < b.file ? -1 : a.file > b.file ? 1 : a.range.start.line - b.range.start.line || a.range.start.col - b.range.start.col || (a.code < b.code ? -1 : a.code > b.code ? 1 : a.message < b.message ? -1 : 1);
          expect(order).toBeLessThan(0);
        }
        expect(sortDiagnostics(shuffled)).toEqual(out);
        expect(sortDiagnostics(out)).toEqual(out);
      }),
      { numRuns: 300 },
    );
  });
});

describe('diag, countBySeverity, hasErrors', () => {
  it('fills severity and hint from the catalogue unless given', () => {
    expect(diag('RC2003', { file: 'a.md', message: 'bad' })).toEqual({
      code: 'RC2003',
      severity: 'error',
      file: 'a.md',
      range: { start: { line: 1, col: 1 }, end: { line: 1, col: 1 } },
      message: 'bad',
      hint: 're-save the file as UTF-8',
    });
    expect(diag('RC2006', { file: 'a.mdc', message: 'x', range: spanAt(2, 3, 5), severity: 'warning', hint: 'h', related: [] })).toEqual({
      code: 'RC2006',
      severity: 'warning',
      file: 'a.mdc',
      range: { start: { line: 2, col: 3 }, end: { line: 2, col: 5 } },
      message: 'x',
      hint: 'h',
    });
  });

  it('counts by severity', () => {
    const list = [d('a', 1, 1, 'X'), d('a', 1, 1, 'X', 'w', { severity: 'warning' }), d('a', 1, 1, 'X', 'i', { severity: 'info' }), d('a', 1, 1, 'X', 'i2', { severity: 'info' })];
    expect(countBySeverity(list)).toEqual({ error: 1, warning: 1, info: 2 });
    expect([hasErrors(list), hasErrors(list.slice(1)), hasErrors([])]).toEqual([true, false, false]);
  });
});

describe('bundleDiag', () => {
  it('builds what diag builds, for every bundle code, and refuses any other code', () => {
    for (const { code } of BUNDLE_CODES) {
      const init = { file: 'manifest.json', message: `m ${code}` };
      expect(bundleDiag(code, init)).toEqual(diag(code, init));
    }
    expect(() => bundleDiag('RC1001', { file: '', message: '' })).toThrow(/not a bundle diagnostic code/);
  });
});
