/**
 * Precision and recall of conflict detection over the fixture repos in
 * fixtures.ts: every expected event is a known conflict, every look-alike
 * case expects none. Prints the figures; both must be at least 0.9.
 */
import { describe, expect, it } from 'vitest';
import { detectConflicts } from '../../src/conflicts/detect.js';
import { signature } from './signature.js';
import { CONFLICTS, LOOK_ALIKES, type FixtureCase } from './fixtures.js';
import { POLICY, resolveTree } from './tree.js';

function found(c: FixtureCase): string[] {
  return detectConflicts(resolveTree(c.tree, c.paths), POLICY, '2026-01-01').value.map(signature).sort();
}

describe('fixture repos', () => {
  it('cover at least 25 conflict situations and 10 look-alikes', () => {
    expect(CONFLICTS.length).toBeGreaterThanOrEqual(25);
    expect(LOOK_ALIKES.length).toBeGreaterThanOrEqual(10);
  });

  it.each(CONFLICTS.map((c) => [c.name, c] as const))('conflict: %s', (_name, c) => {
    expect(found(c)).toEqual([...c.expect].sort());
  });

  it.each(LOOK_ALIKES.map((c) => [c.name, c] as const))('look-alike: %s', (_name, c) => {
    expect(found(c)).toEqual([]);
  });

  it('precision and recall are both at least 0.9', () => {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    for (const c of [...CONFLICTS, ...LOOK_ALIKES]) {
      const got = new Set(found(c));
      const want = new Set(c.expect);
      for (const g of got) if (want.has(g)) tp++; else fp++;
      for (const w of want) if (!got.has(w)) fn++;
    }
    const precision = tp + fp === 0 ? 0 : tp / (tp + fp);
    const recall = tp + fn === 0 ? 0 : tp / (tp + fn);
    console.log(`conflict detection over ${CONFLICTS.length} conflict fixtures and ${LOOK_ALIKES.length} look-alikes: ` +
      `expected ${tp + fn}, found ${tp + fp}, true positives ${tp}; precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)}`);
    expect(precision).toBeGreaterThanOrEqual(0.9);
    expect(recall).toBeGreaterThanOrEqual(0.9);
  });
});
