/**
 * The token ledger (validate/token-count.ts) and its file format
 * (cache/token-store.ts): known counts are taken by content digest, every
 * digest-keyed count asked for is recorded, and the file round-trips and
 * refuses what it did not write.
 */
import { createHash } from 'node:crypto';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { countTokens, encodeLength, forgetCountedTexts, startLedger, takeLedger, type TokenCounts } from '../../src/validate/token-count.js';
import { decodeTokenCounts, encodeTokenCounts } from '../../src/cache/token-store.js';

const sha = (t: string): string => createHash('sha256').update(t).digest('hex');
const LONG = 'Run the whole test suite before every commit, and never skip a failing test.\n';
const OTHER = 'Keep each function under sixty lines; name each file after the one thing it exports.\n';

describe('the token ledger', () => {
  // The engines are shared by every test file of this worker: leave no ledger on and no seeded count behind.
  afterEach(() => void takeLedger());
  afterAll(() => forgetCountedTexts());

  it('records every digest-keyed count asked for, known or new, and nothing once taken', () => {
    startLedger(new Map());
    const n = countTokens('o200k_base', LONG);
    countTokens('o200k_base', 'short text');
    const ledger = takeLedger();
    expect(n).toBe(encodeLength('o200k_base', LONG));
    expect([...(ledger.get('o200k_base') ?? [])]).toEqual([[sha(LONG), n]]);
    countTokens('o200k_base', OTHER);
    expect(takeLedger()).toEqual(new Map());
  });

  it('takes known counts by the digest of the text (which is why a cache is trusted only from this machine)', () => {
    const known: TokenCounts = new Map([['o200k_base', new Map([[sha(`${OTHER}!`), 12345]])]]);
    startLedger(known);
    expect(countTokens('o200k_base', `${OTHER}!`)).toBe(12345);
    expect(takeLedger().get('o200k_base')?.get(sha(`${OTHER}!`))).toBe(12345);
  });

  it('ignores known counts of an encoding it does not have', () => {
    startLedger(new Map([['no-such-encoding', new Map([[sha(LONG), 1]])]]));
    expect(takeLedger()).toEqual(new Map());
  });
});

describe('the tokens file', () => {
  it('round-trips, sorted, so the same counts give the same bytes', () => {
    const a: TokenCounts = new Map([['o200k_base', new Map([[sha('b'), 2], [sha('a'), 1]])], ['cl100k_base', new Map([[sha('c'), 0]])]]);
    const b: TokenCounts = new Map([['cl100k_base', new Map([[sha('c'), 0]])], ['o200k_base', new Map([[sha('a'), 1], [sha('b'), 2]])]]);
    expect(encodeTokenCounts(a)).toEqual(encodeTokenCounts(b));
    expect(decodeTokenCounts(encodeTokenCounts(a))).toEqual(a);
    expect(decodeTokenCounts(Buffer.alloc(0))).toEqual(new Map());
  });

  it('leaves out what is not a digest and a count', () => {
    const odd: TokenCounts = new Map([['o200k_base', new Map([['not hex', 1], [sha('x'), -1], [sha('y'), 1.5], [sha('z'), 3]])]]);
    expect(decodeTokenCounts(encodeTokenCounts(odd))).toEqual(new Map([['o200k_base', new Map([[sha('z'), 3]])]]));
  });

  it.each([
    ['a name with no end', Buffer.from('o200k_base')],
    ['a count past the end', Buffer.concat([Buffer.from('o200k_base\0'), Buffer.from([2, 0, 0, 0]), Buffer.alloc(36)])],
    ['a name over 64 bytes', Buffer.concat([Buffer.from(`${'x'.repeat(80)}\0`), Buffer.alloc(4)])],
    ['an encoding twice', Buffer.concat([Buffer.from('a\0'), Buffer.alloc(4), Buffer.from('a\0'), Buffer.alloc(4)])],
    ['more counts than a build keeps', Buffer.concat([Buffer.from('a\0'), Buffer.from([0xff, 0xff, 0xff, 0x7f])])],
  ])('refuses %s', (_what, body) => {
    expect(decodeTokenCounts(body)).toBeNull();
  });
});
