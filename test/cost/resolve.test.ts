/** Resolution is near-linear in files, directories, paths and globs (variants, attachments, glob matching). */
import { describe, expect, it } from 'vitest';
import { parseDoc } from '../../src/parse/parse-doc.js';
import { resolve, type ResolveInput } from '../../src/resolve/resolve.js';
import type { ParsedDoc } from '../../src/types.js';
import { sourceFiles, type Tree } from '../conflicts/tree.js';
import { describeDoubling, doubling, MAX_RATIO } from './stage-timing.js';
import { monorepo } from './shapes.js';

function input(tree: Tree, paths: string[]): ResolveInput {
  const files = sourceFiles(tree);
  const docs = new Map<string, ParsedDoc>(files.map((f) => [f.id, parseDoc(f).value]));
  return { files, docs, paths: [...new Set([...paths, ...Object.keys(tree)])].sort(), imports: { roots: { repo: '/repo' }, maxDepth: 4 } };
}

/** n rule files with four globs each (exact, extension, brace, dead) over n packages of three paths. */
function globs(n: number): ResolveInput {
  const tree: Tree = { 'AGENTS.md': '# Guide\n\n- Use pnpm.\n' };
  const paths: string[] = [];
  for (let i = 0; i < n; i++) {
    tree[`.cursor/rules/r${i}.mdc`] = `---\ndescription: r${i}\nglobs: packages/p${i}/**/*.ts, **/m${i}/*.{md,mdx}, apps/a${i % 7}/**, legacy/none-${i}/**\n---\n\n- Rule ${i}.\n`;
    paths.push(`packages/p${i}/src/a.ts`, `packages/p${i}/m${i}/README.md`, `apps/a${i % 7}/x${i}.ts`);
  }
  return input(tree, paths);
}

/** n rules, each naming its own package's directory below a wildcard, beside a broad glob shared by all. */
function segmentGlobs(n: number): ResolveInput {
  const tree: Tree = { 'AGENTS.md': '# Guide\n\n- Use pnpm.\n' };
  const paths: string[] = [];
  for (let i = 0; i < n; i++) {
    tree[`.claude/rules/r${i}.md`] = `---\npaths:\n  - "**/m${i}/*.md"\n  - "docs/**"\n---\n\n- Rule ${i}.\n`;
    paths.push(`packages/p${i}/m${i}/README.md`, `docs/d${i}.md`);
  }
  return input(tree, paths);
}

/** n rules sharing a broad glob, each also naming one of its paths: n distinct sets of globs on n paths, one set of rules (co-attachment). */
function sharedBroadGlob(n: number): ResolveInput {
  const tree: Tree = { 'AGENTS.md': '# Guide\n\n- Use pnpm.\n' };
  const paths: string[] = [];
  for (let i = 0; i < n; i++) {
    tree[`.claude/rules/r${i}.md`] = `---\npaths:\n  - "docs/**"\n  - "docs/d${i}.md"\n---\n\n- Rule ${i}.\n`;
    paths.push(`docs/d${i}.md`);
  }
  return input(tree, paths);
}

// Below a few hundred rules a resolve is 10-25 ms and mostly young-generation garbage: whether the
// 2n run crosses a GC threshold decided the ratio (3.02 and 3.07 seen at n = 100-400, 1.7-2.2 at
// 800-1600). The first two shapes never shrink below 400.
describe('resolve doubles at most linearly', () => {
  it('n directories of instruction files pasting boilerplate, with n glob rules', async () => {
    const d = await doubling((n) => {
      const m = monorepo(n);
      return input(m.tree, m.paths);
    }, resolve, { n: 400, minN: 400 });
    console.log(describeDoubling('resolve, monorepo', d));
    expect(d.ratio).toBeLessThan(MAX_RATIO);
  });

  it('n rule files of four globs each', async () => {
    const d = await doubling(globs, resolve, { n: 400, minN: 400 });
    console.log(describeDoubling('resolve, many globs', d));
    expect(d.ratio).toBeLessThan(MAX_RATIO);
  });

  it('n rules naming their own directory below a wildcard, each beside a broad glob (segment index, union count)', async () => {
    const d = await doubling(segmentGlobs, resolve, { n: 200 });
    console.log(describeDoubling('resolve, segment globs', d));
    expect(d.ratio).toBeLessThan(MAX_RATIO);
  });

  it('n rules sharing a broad glob, each also naming one path it matches (co-attachment groups, not rules × paths)', async () => {
    const d = await doubling(sharedBroadGlob, resolve, { n: 200 });
    console.log(describeDoubling('resolve, shared broad glob', d));
    expect(d.ratio).toBeLessThan(MAX_RATIO);
  });
});
