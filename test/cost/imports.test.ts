/**
 * Cost of imports (#8.8, #8.10): following and expanding `@` imports is
 * linear in their number, and a hard cap (imports.max_files, RC2106) bounds
 * what a build reads. Doubling tests: the time of input 2n over the time of n
 * (the shared harness in stage-timing.ts), never an absolute time; linear work gives ~2, the
 * quadratic paths this replaces gave ~4.
 *
 * The stages timed are rulec's own import machinery (discover, parse, follow,
 * resolve with expansion); conflict detection and token counting downstream
 * have their own cost tests.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.js';
import { loadPolicy } from '../../src/config/load-policy.js';
import { discover } from '../../src/discover/discover.js';
import { followImports } from '../../src/discover/follow-imports.js';
import { parseDoc } from '../../src/parse/parse-doc.js';
import { resolve } from '../../src/resolve/resolve.js';
import type { ParsedDoc } from '../../src/types.js';
import { toPosix } from '../../src/util/posix-path.js';
import { pushAll } from '../../src/util/push-all.js';
import { describeDoubling, doubling, MAX_RATIO } from './stage-timing.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function repo(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'rulec-cost-'));
  dirs.push(dir);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}

/** One CLAUDE.md importing `n` distinct files, some of which import a further file (two hops). */
function manyImports(n: number): Record<string, string> {
  const files: Record<string, string> = {};
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    lines.push(`- @docs/d${i % 50}/f${i}.md`);
    files[`docs/d${i % 50}/f${i}.md`] = i % 4 === 0 ? `# F${i}\n\nnote ${i}\n\n@../../more/m${i}.md\n` : `# F${i}\n\nnote ${i}\n`;
    if (i % 4 === 0) files[`more/m${i}.md`] = `more ${i}\n`;
  }
  files['CLAUDE.md'] = `# Root\n\n${lines.join('\n')}\n`;
  for (let d = 0; d < 50; d++) files[`pkg${d}/AGENTS.md`] = `# P${d}\n\n@../docs/d${d}/f${d}.md\n`;
  return files;
}

/** discover → parse → follow imports → resolve, with the default policy and a cap above n. */
async function importStages(dir: string, maxFiles: number): Promise<number> {
  const { policy } = loadPolicy(dir).value;
  const found = (await discover({ repoDir: dir, includeLocal: false, policy })).value;
  const docs = new Map<string, ParsedDoc>();
  for (const f of found.files) docs.set(f.id, parseDoc(f).value);
  const roots = { repo: toPosix(found.rootReal), repoReal: found.rootReal, managedReal: null };
  const followed = followImports(found.files, docs, { roots, maxDepth: 4, maxFiles, maxBytes: 1 << 22, exclusions: { outPrefix: null, globs: [] }, parse: parseDoc });
  const { files, docs: more, capped, refused } = followed.value;
  const res = resolve({ files: [...found.files, ...files], docs: new Map([...docs, ...more]), paths: found.paths, imports: { roots, maxDepth: 4, capped, refused } });
  return res.value.sources.size;
}

describe('cost of imports', () => {
  it('following and expanding n distinct imports is linear (time(2n) / time(n) well under 4)', async () => {
    const n = 400;
    expect(await importStages(repo(manyImports(n)), 1e6)).toBe(n + Math.ceil(n / 4) + 51);
    const d = await doubling((k) => repo(manyImports(k)), (dir) => importStages(dir, 1e6), { n, maxN: 3_200 });
    console.log(describeDoubling('imports, n distinct', d));
    expect(d.ratio).toBeLessThan(MAX_RATIO);
  });

  it('a file naming the same missing target n times, and n distinct missing targets, is linear', async () => {
    const n = 4_000;
    const same = (k: number) => repo({ 'CLAUDE.md': `# R\n\n${'- @docs/missing.md\n'.repeat(k)}` });
    const distinct = (k: number) => repo({ 'CLAUDE.md': `# R\n\n${Array.from({ length: k }, (_, i) => `- @docs/m${i}.md\n`).join('')}` });
    for (const [label, make] of [['same', same], ['distinct', distinct]] as const) {
      const d = await doubling(make, (dir) => importStages(dir, 1000), { n, maxN: 32_000 });
      console.log(describeDoubling(`imports, n missing (${label})`, d));
      expect(d.ratio).toBeLessThan(MAX_RATIO);
    }
  });

  // Each read walked its whole path, one lstat of a path as long per directory: n imports into a
  // chain d deep cost n × d² (50 imports at depth 2,040 took 21 s). A reader walks each directory
  // once, so 64 imports there cost about what one does (the walk of the chain), never 64 times it.
  it('n imports into one deep directory cost one walk of it, not n', async () => {
    const deep = Array.from({ length: 800 }, () => 'a').join('/');
    const chain = (k: number) => repo({ [`${deep}/f.md`]: 'x\n', 'CLAUDE.md': `# R\n\n${Array.from({ length: k }, (_, i) => `- @${deep}/m${i}.md\n`).join('')}- @${deep}/f.md\n` });
    const best = async (dir: string): Promise<number> => {
      let min = Infinity;
      for (let i = 0; i < 3; i++) {
        const t0 = performance.now();
        await importStages(dir, 1000);
        min = Math.min(min, performance.now() - t0);
      }
      return min;
    };
    const [one, many] = [chain(1), chain(64)];
    const ratio = (await best(many)) / (await best(one));
    console.log(`imports, 64 against 1 into a chain 800 deep: ratio ${ratio.toFixed(2)}`);
    expect(ratio).toBeLessThan(MAX_RATIO);
  });

  it('a token of n path segments costs time linear in n, up to the length cap', async () => {
    const token = (k: number) => repo({ 'CLAUDE.md': `# R\n\nSee @${'a/'.repeat(k)}x.md and @${'.'.repeat(2 * k)}a\n` });
    const d = await doubling(token, (dir) => importStages(dir, 1000), { n: 50_000, maxN: 200_000 });
    console.log(describeDoubling('imports, a token of n segments', d));
    expect(d.ratio).toBeLessThan(MAX_RATIO);
  });
});

describe('import caps', () => {
  it('the default policy caps files read through imports at 1000', () => {
    expect(loadPolicy(tmpdir()).value.policy.imports.max_files).toBe(1000);
  });

  it('past imports.max_files following stops with one RC2106 error and no "not found" noise', async () => {
    const files = manyImports(40);
    files['.rulec/policy.yaml'] = 'version: 1\nimports: { max_files: 25 }\n';
    const dir = repo(files);
    const result = await compile({ repoDir: dir, outDir: join(dir, 'out') });
    const imports = result.diagnostics.filter((d) => d.code.startsWith('RC21'));
    expect(imports.map((d) => [d.code, d.severity, d.file])).toEqual([['RC2106', 'error', 'CLAUDE.md']]);
    expect(imports[0]?.message).toMatch(/already read 25 files through imports \(imports\.max_files\)/);
    expect([...result.resolution.sources.values()].filter((s) => s.file.format === 'import')).toHaveLength(25);
  });

  it('a 260 KB import path is a coded warning at the import, not a stack overflow', async () => {
    const dir = repo({ 'CLAUDE.md': `# R\n\nSee @${'a/'.repeat(130_000)}x.md\n`, 'AGENTS.md': `# A\n\n@${'n'.repeat(300)}.md\n` });
    const result = await compile({ repoDir: dir, outDir: join(dir, 'out') });
    const imports = result.diagnostics.filter((d) => d.code.startsWith('RC2') || d.code === 'RC9001');
    expect(imports.map((d) => [d.code, d.file, d.range.start.line, d.range.start.col])).toEqual([
      ['RC2107', 'AGENTS.md', 3, 1], ['RC2107', 'CLAUDE.md', 3, 5],
    ]);
    expect(imports[1]?.message.length).toBeLessThan(200);
  });

  it('200,000 import tokens in one file are reported without exhausting the stack', async () => {
    // Spreading >~120k diagnostics into push() overflowed the stack (RC9001, exit 2); pushAll appends one by one.
    const dir = repo({ 'CLAUDE.md': '@a/b.md\n'.repeat(200_000) });
    const { policy } = loadPolicy(dir).value;
    const found = (await discover({ repoDir: dir, includeLocal: false, policy })).value;
    const docs = new Map(found.files.map((f) => [f.id, parseDoc(f).value]));
    const res = resolve({ files: found.files, docs, paths: found.paths, imports: { roots: { repo: toPosix(found.rootReal) }, maxDepth: 4 } });
    expect(res.diagnostics.filter((d) => d.code === 'RC2101')).toHaveLength(200_000);
    expect(pushAll([0], new Array<number>(300_000).fill(1))).toHaveLength(300_001);
  });
});
