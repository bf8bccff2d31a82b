/** Cohort bucketing reproduces the golden vectors, and ramping up only adds members. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bucketOf, inCohort } from '../../src/registry/cohort.js';

describe('bucketOf', () => {
  it.each([
    ['repo:acme/api', 8364],
    ['repo:acme/web', 6198],
    ['user:alice', 2415],
  ])('("agents-core", "r1", %s) → %i', (subject, bucket) => {
    expect(bucketOf('agents-core', 'r1', subject)).toBe(bucket);
  });

  it('separates the fields with NUL, so moving bytes between them changes the bucket', () => {
    expect(bucketOf('b-1', 'r1', 'x')).not.toBe(bucketOf('b-1r', '1', 'x'));
  });

  it('is in 0..9999, deterministic, and a ramp only adds members', () => {
    fc.assert(fc.property(fc.string({ minLength: 1 }), fc.string({ minLength: 1 }), fc.integer({ min: 1, max: 10000 }), fc.integer({ min: 1, max: 10000 }), (salt, subject, a, b) => {
      const bucket = bucketOf('b-0123456789abcdef', salt, subject);
      expect(bucket).toBeGreaterThanOrEqual(0);
      expect(bucket).toBeLessThan(10000);
      expect(bucketOf('b-0123456789abcdef', salt, subject)).toBe(bucket);
      const [lo, hi] = a < b ? [a, b] : [b, a];
      if (inCohort(bucket, lo)) expect(inCohort(bucket, hi)).toBe(true);
    }));
  });

  it('a missing subject is never in a canary', () => {
    expect(inCohort(null, 10000)).toBe(false);
  });

  it('spreads subjects evenly enough that a 10% canary holds about 10% of them', () => {
    let n = 0;
    for (let i = 0; i < 5000; i++) if (inCohort(bucketOf('b-0123456789abcdef', 'r7', `repo:org/r${i}`), 1000)) n++;
    expect(n).toBeGreaterThan(400);
    expect(n).toBeLessThan(600);
  });
});
