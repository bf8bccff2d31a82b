/** maskCode (src/conflicts/statements.ts) keeps its last answer: asking again, or in between for another text, answers the same. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { maskCode } from '../../src/conflicts/statements.js';

/** What maskCode answers, computed afresh: every closed code span blanked (its backticks too), offsets kept. */
function reference(text: string): { prose: string; code: { start: number; end: number; content: string }[] } {
  const code: { start: number; end: number; content: string }[] = [];
  let prose = '';
  let i = 0;
  while (i < text.length) {
    if (text[i] !== '`') {
      prose += text[i];
      i++;
      continue;
    }
    let run = 1;
    while (text[i + run] === '`') run++;
    const close = text.indexOf('`'.repeat(run), i + run);
    if (close < 0) {
      prose += text.slice(i, i + run);
      i += run;
      continue;
    }
    code.push({ start: i + run, end: close, content: text.slice(i + run, close).trim() });
    prose += ' '.repeat(close + run - i);
    i = close + run;
  }
  return { prose, code };
}

describe('maskCode', () => {
  it('answers a text the same however often, and whatever was asked in between', () => {
    const unit = fc.constantFrom('a', ' ', '`', '``', 'x`y', '-');
    fc.assert(fc.property(fc.array(fc.string({ unit, maxLength: 12 }), { minLength: 1, maxLength: 6 }), (texts) => {
      const first = texts.map((t) => JSON.stringify(maskCode(t)));
      // Again, in order and reversed (each a hit or a miss of the kept answer), and as equal copies.
      expect(texts.map((t) => JSON.stringify(maskCode(t)))).toEqual(first);
      expect([...texts].reverse().map((t) => JSON.stringify(maskCode(t)))).toEqual([...first].reverse());
      expect(texts.map((t) => JSON.stringify(maskCode(` ${t}`.slice(1))))).toEqual(first);
    }), { numRuns: 300 });
  });

  it('agrees with a plain scan on texts without runs longer than one', () => {
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom('a', ' ', '`', 'b'), maxLength: 20 }), (text) => {
      expect(maskCode(text)).toEqual(reference(text));
      expect(maskCode(text)).toEqual(reference(text));
    }), { numRuns: 500 });
  });

  it('hands out spans no caller can change', () => {
    const { code } = maskCode('use `a` and `b`');
    expect(Object.isFrozen(code)).toBe(true);
    expect(maskCode('use `a` and `b`').code.map((c) => c.content)).toEqual(['a', 'b']);
  });
});
