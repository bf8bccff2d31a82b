/** The doubling harness can fail: it tells a quadratic function from a linear one. */
import { describe, expect, it } from 'vitest';
import { doubling, MAX_RATIO } from './stage-timing.js';

function pairs(xs: number[]): number {
  let s = 0;
  for (const a of xs) for (const b of xs) s += a ^ b;
  return s;
}

function sum(xs: number[]): number {
  let s = 0;
  for (let r = 0; r < 200; r++) for (const a of xs) s += a ^ r;
  return s;
}

const array = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

describe('doubling', () => {
  it('measures a quadratic loop at about 4× and a linear one under the limit', async () => {
    const quadratic = await doubling(array, pairs, { n: 500, reps: 3, attempts: 1 });
    const linear = await doubling(array, sum, { n: 5_000, reps: 3 });
    expect(quadratic.ratio).toBeGreaterThan(MAX_RATIO);
    expect(linear.ratio).toBeLessThan(MAX_RATIO);
  });
});
