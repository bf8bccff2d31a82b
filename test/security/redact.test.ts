/**
 * redact(): exact copies, transformed copies (lower-cased, punctuation and
 * emphasis stripped, whitespace collapsed, JSON-escaped) and truncated stubs
 * of a secret are masked; text without secrets is untouched.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maskSourceLine, NO_REDACTIONS, redact, redactDeep, redactionsOf, type SecretSite } from '../../src/diagnostics/redact.js';
import { randomToken as fakeToken } from './random-token.js';

const site = (value: string, keep = 0, file = 'AGENTS.md', line = 1, col = 1): SecretSite => {
  const lines = value.split('\n');
  const end = lines.length === 1 ? { line, col: col + value.length } : { line: line + lines.length - 1, col: lines.at(-1)!.length + 1 };
  return { file, code: 'RC6003', range: { start: { line, col }, end }, value, keep };
};

const ghp = `ghp_${fakeToken(36, undefined, 11)}`;
const r = redactionsOf([site(ghp, 4)]);
const stars = (n: number) => '*'.repeat(n);

describe('redact', () => {
  const cases: [string, string, string][] = [
    ['exact copy keeps the public prefix', `use ${ghp} here`, `use ghp_${stars(36)} here`],
    ['every copy on every line', `${ghp}\n(${ghp})`, `ghp_${stars(36)}\n(ghp_${stars(36)})`],
    ['lower-cased copy', `token ${ghp.toLowerCase()}.`, `token ${stars(40)}.`],
    ['emphasis and underscores stripped', `token ${ghp.replace(/_/g, '')}`, `token ${stars(39)}`],
    ['cut by a truncation', `token ${ghp.slice(0, 20)}...`, `token ${stars(20)}...`],
    ['cut by an ellipsis character', `token ${ghp.slice(0, 10)}… more`, `token ${stars(10)}… more`],
    ['cut on the left', `…${ghp.slice(25)} rest`, `…${stars(15)} rest`],
    ['JSON-escaped context around it', JSON.stringify({ v: `"${ghp}"` }), JSON.stringify({ v: `"ghp_${stars(36)}"` })],
  ];
  it.each(cases)('%s', (_name, input, expected) => {
    expect(redact(input, r)).toBe(expected);
  });

  const untouched: [string, string][] = [
    ['no secret', 'Use pnpm for installs.'],
    ['the public prefix alone', 'GitHub tokens start with ghp_.'],
    ['a short stub before an ellipsis', `the ${ghp.slice(0, 6)}... prefix`],
    ['hex digests and ids', 'sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 b-0123456789abcdef'],
  ];
  it.each(untouched)('leaves alone: %s', (_name, text) => {
    expect(redact(text, r)).toBe(text);
  });

  it('matches a short secret only as a whole word', () => {
    const short = redactionsOf([site('k3Vq9', 0)]);
    expect(redact('password k3Vq9 here', short)).toBe('password ***** here');
    expect(redact('xk3Vq9y', short)).toBe('xk3Vq9y');
  });

  it('masks each line of a multi-line secret (a key body), also when the lines are joined', () => {
    const body = [fakeToken(64, undefined, 3), fakeToken(64, undefined, 4)];
    const key = redactionsOf([site(body.join('\n'), 0, 'k.md', 2)]);
    expect(redact(`BEGIN ${body[0]} ${body[1]} END`, key)).toBe(`BEGIN ${stars(64)} ${stars(64)} END`);
  });

  it('masks a source line by position, also in a slice of it', () => {
    const line = `x = ${ghp};`;
    const at = redactionsOf([site(ghp, 4, 'AGENTS.md', 3, 5)]);
    expect(maskSourceLine('AGENTS.md', 3, line, at)).toBe(`x = ghp_${stars(36)};`);
    expect(maskSourceLine('AGENTS.md', 3, line.slice(10), at, 10)).toBe(`${stars(34)};`);
    expect(maskSourceLine('OTHER.md', 3, 'nothing here', at)).toBe('nothing here');
  });

  it('redactDeep returns the same object when nothing changes, and a copy otherwise', () => {
    const clean = { a: ['x', { b: 'y' }], n: 1 };
    expect(redactDeep(clean, r)).toBe(clean);
    expect(redactDeep(clean, NO_REDACTIONS)).toBe(clean);
    expect(redactDeep({ a: [`t ${ghp}`], n: 1 }, r)).toEqual({ a: [`t ghp_${stars(36)}`], n: 1 });
  });

  it('never lets 12 consecutive characters of a secret through, however the copy was transformed', () => {
    const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
    const secret = fc.array(fc.constantFrom(...ALNUM), { minLength: 16, maxLength: 80 }).map((a) => a.join(''));
    const words = fc.array(fc.constantFrom('use', 'the', 'token', ':', '-', '`', '**', '(', ')', ' ', '\n', 'AKIA', 'ghp_'), { maxLength: 12 }).map((a) => a.join(' '));
    const transform = fc.constantFrom<((s: string) => string)[]>(
      (s) => s, (s) => s.toLowerCase(), (s) => s.toUpperCase(), (s) => `**${s}**`, (s) => s.replace(/(.{7})/g, '$1_'),
    );
    fc.assert(fc.property(secret, words, words, transform, fc.nat(100), fc.boolean(), (s, before, after, tf, cut, cutIt) => {
      const red = redactionsOf([site(`sk-${s}`, 3)]);
      let text = `${before} ${tf(`sk-${s}`)} ${after}`;
      if (cutIt) text = `${text.slice(0, before.length + 1 + Math.min(cut, s.length))}...`;
      const out = redact(text, red).toLowerCase();
      const low = s.toLowerCase();
      for (let i = 0; i + 12 <= low.length; i++) expect(out.replace(/_/g, '')).not.toContain(low.slice(i, i + 12));
    }), { numRuns: 400 });
  });
});
