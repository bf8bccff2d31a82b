/** Hashing a long string a slice at a time gives the whole string's digest (src/util/hash.ts). */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sha256Hex, TEXT_SLICE, updateWithText } from '../../src/util/hash.js';

const whole = (text: string): string => createHash('sha256').update(text).digest('hex');
const sliced = (text: string, slice: number): string => updateWithText(createHash('sha256'), text, slice).digest('hex');

// Surrogate pairs, lone halves of one (each its own U+FFFD in UTF-8) and multi-byte characters: a cut between
// the halves of a pair would hash two U+FFFD instead of the character.
const unit = fc.constantFrom('a', ' ', 'é', '\u{1F600}', '\uD83D', '\uDE00', '\u4E2D', '\n');

describe('updateWithText', () => {
  it('hashes the bytes of the whole string, whatever the slice size', () => {
    fc.assert(fc.property(fc.string({ unit, maxLength: 40 }), fc.integer({ min: 1, max: 8 }), (text, slice) => {
      expect(sliced(text, slice)).toBe(whole(text));
    }), { numRuns: 2000 });
  });

  it('keeps a pair together at a slice boundary, also when the slice is one code unit', () => {
    const text = 'a\u{1F600}b\u{1F600}\u{1F600}';
    for (let slice = 1; slice <= text.length; slice++) expect(sliced(text, slice)).toBe(whole(text));
  });

  it('is what sha256Hex uses for a string longer than one slice', () => {
    const text = `${'x'.repeat(TEXT_SLICE - 1)}\u{1F600}${'y'.repeat(10)}`;
    expect(sha256Hex(text)).toBe(whole(text));
    expect(sha256Hex(Buffer.from(text))).toBe(whole(text));
  });
});
