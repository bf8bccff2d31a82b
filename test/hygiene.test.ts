/**
 * File-system hygiene of the bundle output (#8.13): rulec never reads its own
 * output back as input — wherever --out points (a rules folder, the managed
 * directory) and whichever command runs next (build, lint, explain, without
 * the flag) — and an interrupted build's temp directory is not an input either.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compile } from '../src/compile.js';
import { writeBundle } from '../src/emit/write-bundle.js';
import { makeTree, remove, type Made } from './security/tree.js';

const made: Made[] = [];
afterAll(() => made.forEach(remove));

const sourcesOf = (r: Awaited<ReturnType<typeof compile>>): string[] => [...r.resolution.sources.keys()].sort();

describe('rulec output is never input', () => {
  it.each([
    ['a rules folder', '.claude/rules/out'],
    ['a nested rules folder', 'pkg/.claude/rules/bundles'],
  ])('--out inside %s: the next build, lint and explain without --out read the same sources', async (_what, out) => {
    const m = makeTree({ 'AGENTS.md': '# Root\n\nRules.\n', '.claude/rules/a.md': '# A\n\nRule A.\n', 'pkg/AGENTS.md': '# P\n', 'pkg/x.ts': 'x\n' });
    made.push(m);
    const first = await compile({ repoDir: m.repo, outDir: join(m.repo, out) });
    writeBundle(join(m.repo, out), first);
    // Also an interrupted build's temp directory, and a bundle committed by mistake.
    mkdirSync(join(m.repo, out, `.tmp-${first.manifest.bundle_id}-x1`, 'context'), { recursive: true });
    writeFileSync(join(m.repo, out, `.tmp-${first.manifest.bundle_id}-x1`, 'context', 'v-0000000000000000.md'), '# half\n');
    for (const outDir of [join(m.repo, out), undefined]) {
      for (const includeLocal of [false, true]) {
        const again = await compile({ repoDir: m.repo, includeLocal, ...(outDir ? { outDir } : {}) });
        expect(sourcesOf(again)).toEqual(sourcesOf(first));
        if (!includeLocal) expect(again.manifest.bundle_id).toBe(first.manifest.bundle_id);
      }
    }
  });

  it('--out inside the managed directory is not read as managed policy', async () => {
    const m = makeTree({ 'AGENTS.md': '# Root\n' }, { managed: { 'base.md': '# Base\n\nManaged rule.\n' } });
    made.push(m);
    const first = await compile({ repoDir: m.repo, managedDir: m.managed, outDir: join(m.managed, 'bundles') });
    writeBundle(join(m.managed, 'bundles'), first);
    expect(readdirSync(join(m.managed, 'bundles'))).toContain(first.manifest.bundle_id);
    const again = await compile({ repoDir: m.repo, managedDir: m.managed });
    expect(sourcesOf(again)).toEqual(['AGENTS.md', 'managed://base.md']);
  });
});
