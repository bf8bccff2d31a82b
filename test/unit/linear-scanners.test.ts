/**
 * Scanners that replaced backtracking regexes (issue #8.9 audit) give the
 * regexes' results exactly: checked against the regexes themselves on random
 * lines built from the characters that matter. test/cost/parse.test.ts shows
 * they stay linear on the lines that made the regexes cubic.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { headingOf } from '../../src/parse/markdown-scan.js';
import { parseFrontmatter } from '../../src/parse/frontmatter.js';

const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const reference = (line: string): { level: number; text: string } | null => {
  const m = HEADING.exec(line);
  return m?.[1] ? { level: m[1].length, text: (m[2] ?? '').trim() } : null;
};
const LOOSE = /^([A-Za-z_][\w-]*)[ \t]*:[ \t]*(.*?)[ \t]*$/;
const line = (chars: string[]) => fc.array(fc.constantFrom(...chars), { maxLength: 16 }).map((c) => c.join(''));

describe('headingOf', () => {
  it('agrees with the ATX heading regex (property)', () => {
    fc.assert(fc.property(line(['#', '#', ' ', ' ', '\t', 'a', 'b', '\r', '\u2028', '\u00a0']), (l) => {
      expect(headingOf(l)).toEqual(reference(l));
    }), { numRuns: 10_000 });
  });

  it.each(['# a', '  ### Setup ##', '# foo#', '# #', '#######', '#\tx\t#\t', '    # code', '## x\r'])('%j', (l) => {
    expect(headingOf(l)).toEqual(reference(l));
  });
});

describe('loose frontmatter lines', () => {
  const loose = (text: string) => parseFrontmatter('x.mdc', `---\n${text}\n: [\n---\nbody\n`, true).value.data;
  it('agree with the key: value regex (property)', () => {
    fc.assert(fc.property(line(['k', 'e', 'y', ':', ' ', ' ', '\t', 'v', '\r', '"']), (l) => {
      const m = LOOSE.exec(l);
      const value = (raw: string): unknown => raw === 'true' ? true : raw === 'false' ? false : raw === '' ? null : raw.replace(/^(["'])(.*)\1$/, '$2');
      expect(loose(l)).toEqual(m?.[1] ? { [m[1]]: value(m[2] ?? '') } : {});
    }), { numRuns: 2_000 });
  });
});