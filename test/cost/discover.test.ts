/** Discovery (walking a tree that is not a git repository, classifying, reading) is near-linear in files. */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { discover } from '../../src/discover/discover.js';
import { POLICY } from '../conflicts/tree.js';
import { describeDoubling, doubling, MAX_RATIO } from './stage-timing.js';
import { monorepo } from './shapes.js';

const scratch = mkdtempSync(join(tmpdir(), 'rulec-cost-discover-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The monorepo shape on disk: n instruction files, n rules and 3n ordinary files. */
function materialise(n: number): string {
  const repo = join(scratch, `n${n}`);
  const m = monorepo(n);
  for (const [p, text] of [...Object.entries(m.tree), ...m.paths.map((p) => [p, 'x\n'] as const)]) {
    mkdirSync(dirname(join(repo, p)), { recursive: true });
    writeFileSync(join(repo, p), text);
  }
  return repo;
}

describe('discover doubles at most linearly', () => {
  it('a tree of n directories with instruction files, rules and ordinary files', async () => {
    const d = await doubling(materialise, (repo) => discover({ repoDir: repo, includeLocal: false, policy: POLICY, outDir: join(scratch, 'out') }),
      { n: 100, maxN: 800 });
    console.log(describeDoubling('discover, monorepo on disk', d));
    expect(d.ratio).toBeLessThan(MAX_RATIO);
  });
});
