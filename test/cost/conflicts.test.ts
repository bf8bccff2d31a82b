/**
 * Conflict detection is near-linear in its input (issue #8.7, #11.1): doubling
 * the sections, the files that share text, the glob rules or the length of one
 * statement at most about doubles the time. Shapes are the hostile ones: k
 * contradicting sections per file (which used to take 4.7 s at k = 100 and
 * over 120 s at k = 500), boilerplate pasted into every directory (which used
 * to produce one event per pair of files).
 */
import { describe, expect, it } from 'vitest';
import { detectConflicts } from '../../src/conflicts/detect.js';
import type { Resolution } from '../../src/resolve/resolve.js';
import { POLICY, resolveTree, type Tree } from '../conflicts/tree.js';
import { describeDoubling, doubling, MAX_RATIO } from './stage-timing.js';
import { duplicateGroups } from '../../src/conflicts/duplicates.js';
import { factsOf, type SourceFacts } from '../../src/conflicts/facts.js';
import { reachOf } from '../../src/conflicts/reach.js';
import { DEFAULT_LAYER_ORDER } from '../../src/conflicts/cascade.js';

const detect = (res: Resolution) => detectConflicts(res, POLICY, '2026-01-01');
const sections = (k: number, body: (i: number) => string): string =>
  Array.from({ length: k }, (_, i) => `## Section ${i}\n\n${body(i)}\n`).join('\n');
const BOILERPLATE = [
  'This area is owned by the platform team; ask in the team channel before changing shared contracts.',
  'Most changes in this directory need a matching update to the integration tests and the changelog.',
  'When in doubt, follow the existing patterns in neighbouring files rather than introducing a new style.',
];

const SHAPES: [string, (n: number) => { tree: Tree; paths?: string[] }, number][] = [
  ['k sections: npm against yarn', (k) => ({ tree: {
    'AGENTS.md': `# A\n\n${sections(k, () => '- Use npm: `npm install`.')}`,
    'CLAUDE.md': `# B\n\n${sections(k, () => '- Use yarn: `yarn install`.')}` } }), 100],
  ['k sections: test commands against other test commands', (k) => ({ tree: {
    'AGENTS.md': `# A\n\n${sections(k, (i) => `- Run tests with \`cargo nextest run c${i}\`.or \`make test-${i}\`.`)}`,
    'CLAUDE.md': `# B\n\n${sections(k, (i) => `- Run tests with \`npx jest p${i}\` or \`just test${i}\`.`)}` } }), 100],
  ['k sections: never/always on overlapping subjects', (k) => ({ tree: {
    'AGENTS.md': `# A\n\n${sections(k, (i) => `- Never log request body field${i} data.`)}`,
    'packages/api/AGENTS.md': `# B\n\n${sections(k, (i) => `- Always log request body field${i} data.`)}` } }), 100],
  ['n directories pasting the same boilerplate', (n) => {
    const tree: Tree = { 'AGENTS.md': `# Root\n\n${BOILERPLATE.map((b) => `- ${b}`).join('\n')}\n` };
    for (let i = 0; i < n; i++) tree[`packages/p${i % 50}/m${i}/AGENTS.md`] = `# M${i}\n\n${BOILERPLATE.map((b) => `- ${b}`).join('\n')}\n\n- Module ${i} notes.\n`;
    return { tree };
    // From 400: since event ids encode each copy once, 100 directories take about 10 ms warm, under
    // the floor, and a first cold measurement could settle the size there.
  }, 400],
  ['n glob rules sharing text with the root', (n) => {
    const tree: Tree = { 'AGENTS.md': `# Root\n\n- ${BOILERPLATE[0]}\n- Use pnpm.\n` };
    const paths: string[] = [];
    for (let i = 0; i < n; i++) {
      tree[`.claude/rules/r${i}.md`] = `---\npaths:\n  - "packages/p${i}/**"\n---\n\n# R${i}\n\n- ${BOILERPLATE[0]}\n- Use npm in p${i}: \`npm install\`.\n`;
      paths.push(`packages/p${i}/src/index.ts`);
    }
    return { tree, paths };
  }, 50],
  // Co-attachment is grouped by matched path: n rules that each share a package with one broad rule are n
  // groups of two, and a block every rule copies is one event per statement, not one per pair of rules.
  ['n glob rules co-attaching with one broad rule, all copying a block', (n) => {
    const block = `- ${BOILERPLATE[0]}\n- ${BOILERPLATE[1]}\n`;
    const tree: Tree = { '.claude/rules/all.md': `---\npaths:\n  - "**/*.ts"\n---\n\n# All\n\n${block}- Use pnpm.\n` };
    const paths: string[] = [];
    for (let i = 0; i < n; i++) {
      tree[`.claude/rules/r${i}.md`] = `---\npaths:\n  - "packages/p${i}/**"\n---\n\n# R${i}\n\n${block}- Use pnpm in p${i}: \`pnpm install\`.\n`;
      paths.push(`packages/p${i}/src/index.ts`, `packages/p${i}/src/util.ts`);
    }
    return { tree, paths };
    // From 200, like the boilerplate shape above: at 50 rules a warm run is under the floor.
  }, 200],
  ['n glob rules that all attach to every path', (n) => {
    const tree: Tree = {};
    for (let i = 0; i < n; i++) tree[`.claude/rules/r${i}.md`] = `---\npaths:\n  - "**/*.ts"\n---\n\n# R${i}\n\n- ${BOILERPLATE[0]}\n- ${BOILERPLATE[1]}\n- Rule ${i} notes.\n`;
    return { tree, paths: Array.from({ length: 200 }, (_, i) => `src/m${i % 20}/f${i}.ts`) };
  }, 50],
  // Every " - " a place a dash remark could start, and a code span at the very end: each start is refused.
  ['one statement with n dashes before a code span', (n) => ({ tree: {
    'AGENTS.md': `# A\n\n- ${'keep it short - '.repeat(n)}\`end\`\n`,
    'CLAUDE.md': `# B\n\n- ${'keep it short - '.repeat(n)}\`end\`\n` } }), 4000],
  // A runtime label, then a run of spaces: two unbounded whitespace runs in one pattern made this quadratic.
  ['declared minimums followed by n spaces', (n) => ({ tree: {
    'AGENTS.md': `# A\n\n${'- **Go**: >= 1.26 '.concat(' '.repeat(n), 'x\n').repeat(5)}- node version${' '.repeat(n)}20\n`,
    'CLAUDE.md': `# B\n\n- **Node.js:**${' '.repeat(n)}x\n` } }), 4000],
  ['one statement with n ranked options', (n) => ({ tree: {
    'AGENTS.md': `# A\n\n- ${Array.from({ length: n }, (_, i) => `\`opt${i}\` (preferred) > **o${i}** (fallback)`).join(' > ')}\n`,
    'CLAUDE.md': `# B\n\n- ${Array.from({ length: n }, (_, i) => `\`opt${i}\` (last resort)`).join(' > ')}\n` } }), 500],
  // Templates are compared within one kind of branch only (their first segment), like runtime versions within one
  // runtime: n kinds that disagree cost n comparisons. Within one kind the comparisons are capped by findings_per_topic.
  ['n kinds of branch, each named two ways', (n) => ({ tree: {
    'AGENTS.md': `# A\n\n## Branches\n\n${Array.from({ length: n }, (_, i) => `- \`k${i}/<pkg>-release-<date>\``).join('\n')}\n`,
    'CLAUDE.md': `# B\n\n## Branches\n\n${Array.from({ length: n }, (_, i) => `- \`k${i}/<pkg>-<version>\``).join('\n')}\n` } }), 200],
  // Every clause of a statement asked whether the whole statement speaks of branches: n short clauses were n scans.
  ['one paragraph about branches of n short clauses with a slash', (n) => ({ tree: {
    'AGENTS.md': `# A\n\nBranches: ${'x/y; '.repeat(n)}\n`, 'CLAUDE.md': '# B\n\n- Name branches `x/<topic>`.\n' } }), 2000],
  // Each pair of code spans is read once, whatever lies between them.
  ['one statement with n options ranked two by two', (n) => ({ tree: {
    'AGENTS.md': `# A\n\n- ${Array.from({ length: n }, (_, i) => `prefer \`a${i}\` over \`b${i}\` or use \`c${i}\``).join(', ')}\n`,
    'CLAUDE.md': `# B\n\n- Use \`b0\` ${'over and instead of '.repeat(n)}\`a0\`\n` } }), 500],
  // Anchored patterns with bounded gaps: a long tail after "run" or "no need to" is read once.
  ['changelog rules with a tail of n words', (n) => ({ tree: {
    'AGENTS.md': `# A\n\n- Run ${'tool '.repeat(n)}to add a changelog entry.\n`,
    'packages/p/AGENTS.md': `# P\n\n- There is no need to add change logs${' here'.repeat(n)}.\n` } }), 2000],
  // "run" and a run of spaces before the changelog: a gap that may be blanks between two `\s+` split them every way.
  ['a changelog rule whose command is n spaces', (n) => ({ tree: {
    'AGENTS.md': `# A\n\n- run${' '.repeat(n)}x changelog\n`, 'packages/p/AGENTS.md': '# P\n\n- There is no need to add change logs.\n' } }), 2000],
  ['dependency rules with a tail of n words', (n) => ({ tree: {
    'AGENTS.md': `# A\n\n- When adding a new dependency${' to x'.repeat(n)}, add it here.\n`,
    'packages/p/AGENTS.md': `# P\n\n- Do not add new dependencies ${'without '.repeat(n)}approval.\n` } }), 2000],
  ['one statement with n commands', (n) => ({ tree: {
    'AGENTS.md': `# A\n\n- ${Array.from({ length: n }, (_, i) => `run \`npm install p${i}\` then \`npm test\``).join(', ')}.\n`,
    'CLAUDE.md': `# B\n\n- ${Array.from({ length: n }, (_, i) => `run \`yarn add q${i}\` and \`yarn test\``).join(', ')}.\n` } }), 500],
];

describe('conflict detection doubles at most linearly', () => {
  it.each(SHAPES)('%s', async (label, shape, n) => {
    const d = await doubling((k) => {
      const s = shape(k);
      return resolveTree(s.tree, s.paths);
    }, detect, { n });
    console.log(describeDoubling(`conflicts, ${label}`, d));
    expect(d.ratio).toBeLessThan(MAX_RATIO);
  });

  // n variants and n/2 duplicated statements, each in two files: a statement's work follows its copies,
  // not every variant of the repository (per-statement arrays as long as the variant list were n²).
  it('duplicate groups: n directories, each pair sharing a statement of its own', async () => {
    const d = await doubling((n) => {
      const tree: Tree = { 'AGENTS.md': '# Root\n\n- Use pnpm.\n' };
      for (let i = 0; i < n; i++) {
        tree[`packages/p${i}/AGENTS.md`] = `# P${i}\n\n- Keep the generated client for service ${i >> 1} in sync with its schema before you commit.\n`;
      }
      const res = resolveTree(tree);
      const facts = new Map<string, SourceFacts>([...res.sources].map(([id, src]) => [id, factsOf(src)]));
      return { res, reach: reachOf(res), factsFor: (id: string) => facts.get(id) ?? null };
      // At most 1,000 (2,000 for 2n), each sample running the input several times: the time per
      // directory steps up with the heap, not the work, once the young generation and the caches
      // no longer hold one run (measured alone, best of seven: 1.0 µs per directory at 2,000 and
      // 4,000, 2.0 at 8,000, 2.9 at 16,000), and beside the other test worker the step comes
      // sooner: 4,000 against 8,000 gave 3.05 there, 2,000 against 4,000 2.13-2.86 (mean 2.65, six
      // runs beside a parse cost file), 1,000 against 2,000 1.8-2.58 (mean 2.17). Small as it is, n
      // still shows quadratic work: a test-only mutant that scans the ids once per id (a string
      // comparison per pair) measured 3.24-3.54 at 1,000.
    }, ({ res, reach, factsFor }) => duplicateGroups(res, reach, factsFor, DEFAULT_LAYER_ORDER), { n: 1000, maxN: 1000 });
    console.log(describeDoubling('duplicate groups, pairs sharing a statement', d));
    expect(d.ratio).toBeLessThan(MAX_RATIO);
  });

  it('k contradicting sections give one event per disagreement, not k² (bounded output)', () => {
    const tree = (k: number): Tree => ({
      'AGENTS.md': `# A\n\n${sections(k, (i) => `- Run tests with \`cargo nextest run c${i}\`.`)}`,
      'CLAUDE.md': `# B\n\n${sections(k, (i) => `- Run tests with \`npx jest p${i}\`.`)}`,
    });
    const at = (k: number) => detect(resolveTree(tree(k))).value;
    expect(at(10).map((e) => [e.kind, e.topic, e.sides.length])).toEqual([['contradiction', 'test-command', 2]]);
    const boiler = (n: number) => {
      const t: Tree = { 'AGENTS.md': `# Root\n\n- ${BOILERPLATE[1]}\n` };
      for (let i = 0; i < n; i++) t[`packages/p${i}/AGENTS.md`] = `# P\n\n- ${BOILERPLATE[1]}\n`;
      return detect(resolveTree(t)).value;
    };
    expect(boiler(40).map((e) => [e.kind, e.sides.length, e.variants.length])).toEqual([['duplicate', 41, 40]]);
  });
});
