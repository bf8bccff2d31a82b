/**
 * Compiling a commit from git objects gives the bundle a checkout of that
 * commit gives, byte for byte — on every golden fixture without personal
 * (untracked) files — and never sees uncommitted changes in the work tree,
 * its policy included.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.js';
import { bundleFileMap } from '../../src/emit/write-bundle.js';
import { gitSource } from '../../src/source/repo-source.js';
import { fixtureCases, git, materialiseCase, optionsFromArgs, type Materialised } from '../helpers/fixture-repo.js';
import { history, type History } from '../diff/history.js';

const made: Materialised[] = [];
const histories: History[] = [];
afterAll(() => {
  for (const m of made) rmSync(m.dir, { recursive: true, force: true });
  for (const h of histories) h.cleanup();
});

const committedOnly = fixtureCases().filter((name) => {
  const m = materialiseCase(name, false);
  rmSync(m.dir, { recursive: true, force: true });
  return (m.spec.untracked ?? []).length === 0 && !m.args.includes('--include-local');
});

describe('compile from a git tree', () => {
  it.each(committedOnly)('fixture %s: same bundle as the checkout', async (name) => {
    const m = materialiseCase(name);
    made.push(m);
    const fromTree = await compile(optionsFromArgs(m));
    const fromObjects = await compile({ ...optionsFromArgs(m), source: await gitSource(m.repo, 'HEAD') });
    expect(bundleFileMap(fromObjects)).toEqual(bundleFileMap(fromTree));
    expect(fromObjects.diagnostics).toEqual(fromTree.diagnostics);
  });

  it('records the same remote as the checkout, without credentials, and none when there is none', async () => {
    const m = materialiseCase('nested-agents');
    made.push(m);
    const none = await gitSource(m.repo, 'HEAD');
    expect((await none.listing()).git.remote).toBeNull();
    git(m.repo, 'remote', 'add', 'origin', 'https://user:token@example.com/org/repo.git');
    const fromTree = await compile({ repoDir: m.repo });
    const fromObjects = await compile({ repoDir: m.repo, source: await gitSource(m.repo, 'HEAD') });
    expect(fromObjects.manifest.source).toEqual(fromTree.manifest.source);
    expect(fromObjects.manifest.source.repo).toBe('https://example.com/org/repo.git');
  });

  it('reads the commit, not the uncommitted work tree', async () => {
    const m = materialiseCase('nested-agents');
    made.push(m);
    const committed = await compile({ repoDir: m.repo });
    writeFileSync(join(m.repo, 'AGENTS.md'), '# Changed in the work tree\n');
    writeFileSync(join(m.repo, 'packages', 'web', 'AGENTS.md'), '# Also changed\n');
    writeFileSync(join(m.repo, 'NEW.md'), 'untracked\n');
    const fromObjects = await compile({ repoDir: m.repo, source: await gitSource(m.repo, 'HEAD') });
    expect(fromObjects.manifest.bundle_id).toBe(committed.manifest.bundle_id);
    expect(fromObjects.manifest.source).toEqual({ ...committed.manifest.source, dirty: false });
    const worktree = await compile({ repoDir: m.repo });
    expect(worktree.manifest.bundle_id).not.toBe(committed.manifest.bundle_id);
  });

  it('reads the policy committed in the tree, not the one in the work tree', async () => {
    const h = history({ 'AGENTS.md': '# Repo\n', '.rulec/policy.yaml': 'version: 1\nbudgets: { variant_tokens: 1234 }\n' });
    histories.push(h);
    writeFileSync(join(h.repo, '.rulec', 'policy.yaml'), 'version: 1\nbudgets: { variant_tokens: 999 }\n');
    const fromObjects = await compile({ repoDir: h.repo, source: await gitSource(h.repo, 'HEAD') });
    expect(fromObjects.policy.budgets.variant_tokens).toBe(1234);
    expect((await compile({ repoDir: h.repo })).policy.budgets.variant_tokens).toBe(999);
    h.commit('no policy', { '.rulec/policy.yaml': null });
    expect((await compile({ repoDir: h.repo, source: await gitSource(h.repo, 'HEAD') })).policy.budgets.variant_tokens).toBe(16000);
  });

  it('counts the commits reachable from the commit it reads, named by a ref or by its id', async () => {
    const h = history({ 'AGENTS.md': '# Repo\n' });
    histories.push(h);
    const second = h.commit('second', { 'AGENTS.md': '# Repo\n\nTwo.\n' });
    h.commit('third', { 'AGENTS.md': '# Repo\n\nThree.\n' });
    const listed = async (rev: string) => (await (await gitSource(h.repo, rev)).listing()).git;
    expect(await listed('main')).toMatchObject({ seq: 3, dirty: false });
    expect(await listed('main~2')).toMatchObject({ seq: 1 });
    expect(await listed(second)).toMatchObject({ seq: 2, commit: second });
  });
});
