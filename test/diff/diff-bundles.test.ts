/**
 * diffBundles on pairs of builds, one change kind per case: each case builds a
 * base tree, applies an edit, compiles both and checks the parts of the diff
 * that change kind must produce. Every diff is also checked against
 * schemas/diff.schema.json and against its mirror image (new → old swaps
 * added and removed).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compile, type CompileResult } from '../../src/compile.js';
import { diffBundles } from '../../src/diff/diff-bundles.js';
import type { BundleDiff } from '../../src/diff/bundle-diff.js';
import { viewOfBundle, viewOfCompile } from '../../src/diff/view.js';
import { writeBundle } from '../../src/emit/write-bundle.js';
import { openBundle } from '../../src/bundle/open-bundle.js';
import { history, type History, type TreeEdit } from './history.js';
import { validateDiff } from './schema.js';

const made: History[] = [];
afterAll(() => { for (const h of made) h.cleanup(); });

const BASE: TreeEdit = {
  'AGENTS.md': '# Repo\n\n## Testing\n\n- Run `npm test` before committing.\n\n## Style\n\nKeep functions short.\n',
  'packages/api/AGENTS.md': '# API\n\n## Logging\n\nNever log request bodies.\n',
  'packages/api/src/index.ts': 'export {};\n',
  'packages/web/src/index.ts': 'export {};\n',
  'src/a.ts': 'export {};\n',
  '.claude/rules/ts.md': '---\npaths: ["src/**"]\n---\n# TypeScript\n\nPrefer `unknown` over `any`.\n',
};

interface Pair { old: CompileResult; new: CompileResult; diff: BundleDiff; h: History }

async function pair(edit: TreeEdit, base: TreeEdit = BASE, managed?: [string, string]): Promise<Pair> {
  const h = history(base);
  made.push(h);
  const managedDir = managed ? join(h.dir, 'managed') : undefined;
  if (managedDir && managed) {
    mkdirSync(managedDir);
    writeFileSync(join(managedDir, 'security.md'), managed[0]);
  }
  const old = await compile({ repoDir: h.repo, ...(managedDir ? { managedDir } : {}) });
  h.commit('head', edit);
  if (managedDir && managed) writeFileSync(join(managedDir, 'security.md'), managed[1]);
  const now = await compile({ repoDir: h.repo, ...(managedDir ? { managedDir } : {}) });
  const diff = diffBundles(viewOfCompile(old, 'old', 'worktree', null), viewOfCompile(now, 'new', 'worktree', null));
  expect(validateDiff(diff)).toEqual([]);
  const back = diffBundles(viewOfCompile(now, 'new', 'worktree', null), viewOfCompile(old, 'old', 'worktree', null));
  expect([back.summary.rules.added, back.summary.rules.removed, back.summary.sources.added, back.summary.sources.removed])
    .toEqual([diff.summary.rules.removed, diff.summary.rules.added, diff.summary.sources.removed, diff.summary.sources.added]);
  expect([back.conflicts.introduced, back.conflicts.resolved]).toEqual([diff.conflicts.resolved, diff.conflicts.introduced]);
  return { old, new: now, diff, h };
}

const kinds = (d: BundleDiff): [string, string, string[]][] => d.rules.map((r) => [r.kind, `${(r.new ?? r.old)?.source}#${r.rule}`, r.effects]);

describe('diffBundles', () => {
  it('identical builds: nothing changed, bump none', async () => {
    const { diff } = await pair({});
    expect(diff.identical).toBe(true);
    expect(diff.semver).toEqual({ bump: 'none', reasons: [] });
    expect([diff.rules, diff.sources, diff.groups, diff.winners, diff.budgets]).toEqual([[], [], [], [], []]);
    expect(diff.cache).toEqual({ unit: 'paths', unchanged: diff.summary.total, prefix_kept: 0, prefix_lost: 0, tokens_kept: 0, tokens_invalidated: 0 });
  });

  it('wording only: a changed rule, patch', async () => {
    const { diff } = await pair({ 'AGENTS.md': String(BASE['AGENTS.md']).replace('Keep functions short.', 'Keep your functions short.') });
    expect(kinds(diff)).toEqual([['changed', 'AGENTS.md#style', ['wording']]]);
    expect(diff.rules[0]).toMatchObject({ removed_lines: ['Keep functions short.'], added_lines: ['Keep your functions short.'] });
    expect(diff.semver.bump).toBe('patch');
    expect(diff.winners).toEqual([]);
  });

  it('a test command changed: prescription-changed, major, and the winner changes at every path', async () => {
    const { diff } = await pair({ 'AGENTS.md': String(BASE['AGENTS.md']).replace('npm test', 'pnpm vitest run') });
    expect(kinds(diff)).toEqual([['changed', 'AGENTS.md#testing', ['prescription-changed']]]);
    // `pnpm vitest run` also says which package manager the repository uses.
    expect(diff.rules[0]?.removed_findings).toEqual([{ topic: 'package-manager', value: 'npm', line: 5 }, { topic: 'test-command', value: 'npm test', line: 5 }]);
    expect(diff.rules[0]?.added_findings).toEqual([{ topic: 'package-manager', value: 'pnpm', line: 5 }, { topic: 'test-command', value: 'pnpm vitest run', line: 5 }]);
    expect(diff.semver.bump).toBe('major');
    expect(diff.winners.map((w) => w.topic)).toEqual(['package-manager', 'test-command']);
    expect(diff.winners[1]).toEqual({
      topic: 'test-command',
      old: { value: 'npm test', source: 'AGENTS.md', rule: 'testing', line: 5, decided: true },
      new: { value: 'pnpm vitest run', source: 'AGENTS.md', rule: 'testing', line: 5, decided: true },
      groups: 2, units: { count: diff.summary.total, examples: expect.any(Array) },
    });
    expect(diff.summary.affected).toBe(diff.summary.total);
  });

  it('a rule added: minor; removed: major', async () => {
    const added = await pair({ 'packages/api/AGENTS.md': `${BASE['packages/api/AGENTS.md']}\n## Errors\n\nReturn problem+json errors.\n` });
    expect(kinds(added.diff)).toEqual([['added', 'packages/api/AGENTS.md#errors', []]]);
    expect(added.diff.semver.bump).toBe('minor');
    // Only the api paths are affected; the root group keeps its text.
    expect(added.diff.affected.directories.map((d) => d.dir)).toEqual(['packages/api']);
    expect(added.diff.groups[0]?.sources.changed).toEqual(['packages/api/AGENTS.md']);
    const removed = await pair({ 'AGENTS.md': '# Repo\n\n## Testing\n\n- Run `npm test` before committing.\n' });
    expect(kinds(removed.diff)).toEqual([['removed', 'AGENTS.md#style', []]]);
    expect(removed.diff.rules[0]?.removed_lines).toEqual(['## Style', 'Keep functions short.']);
    expect(removed.diff.semver).toMatchObject({ bump: 'major', reasons: [{ bump: 'major', why: 'rule removed: AGENTS.md#style' }] });
  });

  it('a rule moved to another file: moved, its scope narrowed (major)', async () => {
    const { diff } = await pair({
      'AGENTS.md': '# Repo\n\n## Testing\n\n- Run `npm test` before committing.\n',
      'packages/api/AGENTS.md': `${BASE['packages/api/AGENTS.md']}\n## Style\n\nKeep functions short.\n`,
    });
    expect(kinds(diff)).toEqual([['moved', 'packages/api/AGENTS.md#style', ['scope-narrowed']]]);
    expect(diff.rules[0]?.old).toMatchObject({ source: 'AGENTS.md', rule: 'style', scope: '.' });
    expect(diff.semver.bump).toBe('major');
  });

  it('a rule\'s globs narrowed and widened to the whole repository', async () => {
    const narrowed = await pair({ '.claude/rules/ts.md': String(BASE['.claude/rules/ts.md']).replace('src/**', 'src/api/**') });
    expect(kinds(narrowed.diff)).toEqual([['changed', '.claude/rules/ts.md#_top', ['scope-narrowed']]]);
    expect(narrowed.diff.attachments).toMatchObject([{ source: '.claude/rules/ts.md', change: 'changed', old: { globs: ['src/**'] }, new: { globs: ['src/api/**'] } }]);
    expect(narrowed.diff.semver.bump).toBe('major');
    const widened = await pair({ '.claude/rules/ts.md': String(BASE['.claude/rules/ts.md']).replace('src/**', '**/*.ts') });
    expect(kinds(widened.diff)).toEqual([['changed', '.claude/rules/ts.md#_top', ['scope-to-repository', 'scope-widened']]]);
    expect(widened.diff.semver.bump).toBe('minor');
  });

  it('a new source: sources added to the groups it reaches, nothing else affected', async () => {
    const { diff } = await pair({ 'packages/web/AGENTS.md': '# Web\n\nUse Tailwind classes.\n' });
    expect(diff.sources.map((s) => [s.id, s.change])).toEqual([['packages/web/AGENTS.md', 'added']]);
    expect(diff.groups.map((g) => [g.dirs.examples, g.sources.added.map((s) => s.id)])).toEqual([[['packages/web'], ['packages/web/AGENTS.md']]]);
    expect(diff.affected).toMatchObject({ unit: 'paths', count: 2, directories: [{ dir: 'packages/web', count: 2, examples: ['packages/web/AGENTS.md', 'packages/web/src/index.ts'] }] });
    // Appended at the end of the root context: the cached prefix survives whole.
    expect(diff.groups[0]?.cache).toMatchObject({ whole_prefix: true, first_change: null });
    expect(diff.cache).toMatchObject({ prefix_kept: 2, prefix_lost: 0, tokens_invalidated: 0 });
  });

  it('a change deeper in the chain keeps the cached prefix of the blocks before it', async () => {
    const { diff, old } = await pair({ 'packages/api/AGENTS.md': String(BASE['packages/api/AGENTS.md']).replace('request bodies', 'request or response bodies') });
    const root = old.variants.find((v) => v.sources.length === 1 && v.sources[0]?.id === 'AGENTS.md');
    expect(diff.groups).toHaveLength(1);
    expect(diff.groups[0]?.cache).toMatchObject({ kept_tokens: root?.tokens, whole_prefix: false, first_change: 'packages/api/AGENTS.md' });
    expect(diff.cache).toMatchObject({ prefix_lost: 2, tokens_kept: 2 * (root?.tokens ?? 0) });
  });

  it('conflicts introduced and resolved, by id', async () => {
    const { diff } = await pair({ 'packages/api/AGENTS.md': `${BASE['packages/api/AGENTS.md']}\n## Testing\n\nRun \`yarn jest\` to test.\n` });
    const sides = ['AGENTS.md', 'packages/api/AGENTS.md'];
    expect(diff.conflicts.introduced.map((e) => [e.kind, e.topic, e.sides.map((s) => s.source)]).sort())
      .toEqual([['override', 'package-manager', sides], ['override', 'test-command', sides]]);
    expect(diff.conflicts.resolved).toEqual([]);
    expect(diff.winners).toMatchObject([
      { topic: 'package-manager', old: { value: 'npm', source: 'AGENTS.md' }, new: { value: 'yarn', source: 'packages/api/AGENTS.md' } },
      { topic: 'test-command', old: { value: 'npm test', source: 'AGENTS.md' }, new: { value: 'yarn jest', source: 'packages/api/AGENTS.md' } },
    ]);
    // And the mirror image resolves them (checked for every case in pair()).
  });

  it('an agent budget that now drops a file', async () => {
    const policy = 'version: 1\nprofiles:\n  codex: { project_doc_max_bytes: 400 }\n';
    const { diff } = await pair({ 'packages/api/AGENTS.md': `${BASE['packages/api/AGENTS.md']}\n## More\n\n${'Validate every input at the boundary. '.repeat(10)}\n` },
      { ...BASE, '.rulec/policy.yaml': policy });
    expect(diff.budgets).toEqual([{ profile: 'codex', file: 'packages/api/AGENTS.md', change: 'now-dropped', groups: 1, units: { count: 2, examples: ['packages/api/AGENTS.md', 'packages/api/src/index.ts'] } }]);
    expect(diff.summary.newly_dropped).toBe(1);
    const codex = diff.groups[0]?.profiles.find((p) => p.profile === 'codex');
    expect(codex).toMatchObject({ old: { fits: true }, new: { fits: false }, newly_dropped: ['packages/api/AGENTS.md'] });
  });

  it('an enforced managed rule changed: major', async () => {
    const before = '---\nenforce: true\n---\n# Security\n\nNever commit secrets.\n';
    const { diff } = await pair({}, BASE, [before, before.replace('# Security', '# Security policy')]);
    expect(kinds(diff)).toEqual([['changed', 'managed://security.md#_top', ['wording']]]);
    expect(diff.rules[0]?.new).toMatchObject({ enforced: true, layer: 'managed' });
    expect(diff.semver.reasons[0]).toMatchObject({ bump: 'major', why: 'enforced rule changed: managed://security.md#_top (wording)' });
  });

  it('from bundle directories: counts are of index directories, and the rules are read from the source blobs', async () => {
    const p = await pair({ 'AGENTS.md': String(BASE['AGENTS.md']).replace('npm test', 'pnpm test') });
    const out = join(p.h.dir, 'out');
    const a = openBundle(writeBundle(out, p.old));
    const b = openBundle(writeBundle(out, p.new));
    const diff = diffBundles(viewOfBundle(a, 'bundle:a'), viewOfBundle(b, 'bundle:b'));
    expect(validateDiff(diff)).toEqual([]);
    expect(diff.summary.unit).toBe('directories');
    expect(kinds(diff)).toEqual(kinds(p.diff));
    expect(diff.winners.map((w) => [w.topic, w.new?.value])).toEqual([['package-manager', 'pnpm'], ['test-command', 'pnpm test']]);
    expect(diff.affected).toMatchObject({ unit: 'directories', count: 2, directories: [{ dir: '.', count: 1, examples: [] }, { dir: 'packages/api', count: 1, examples: [] }] });
    expect(diff.notes).toContain('the new side is a bundle directory, whose path list is not recorded: counts are of index directories, not paths');
    rmSync(out, { recursive: true, force: true });
  });
});
