/** Search and union over arrays sorted by code units (src/util/sorted.ts). */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { lowerBound, unionSorted } from '../../src/util/sorted.js';

// Strings that differ where code-unit order and other orders disagree: case, surrogate pairs, '/' against '0'.
const element = fc.string({ unit: fc.constantFrom('a', 'B', 'b', '/', '0', '.', 'é', '\u{1F600}', '\uFFFD'), maxLength: 4 });
const sortedList = fc.uniqueArray(element, { maxLength: 30 }).map((xs) => xs.sort());

describe('unionSorted', () => {
  it('is the sorted set of every element of its sorted lists', () => {
    fc.assert(fc.property(fc.array(sortedList, { maxLength: 5 }), (lists) => {
      expect(unionSorted(lists)).toEqual([...new Set(lists.flat())].sort());
    }), { numRuns: 500 });
  });

  it('keeps each element once when lists overlap or repeat, and gives a new array', () => {
    const a = ['a/b.ts', 'a/c.d.ts', 'z'];
    expect(unionSorted([a, ['a/c.d.ts'], a])).toEqual(a);
    expect(unionSorted([a])).not.toBe(a);
    expect(unionSorted([])).toEqual([]);
  });
});

describe('lowerBound', () => {
  it('is the first index whose element is not below the key', () => {
    fc.assert(fc.property(sortedList, element, (list, key) => {
      const i = lowerBound(list, key);
      expect(list.slice(0, i).every((x) => x < key) && list.slice(i).every((x) => x >= key)).toBe(true);
    }), { numRuns: 300 });
  });
});
