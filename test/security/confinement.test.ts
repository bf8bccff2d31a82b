/**
 * Confinement (#8.1): no read leaves its root. Each row is a repository (git
 * or not), a managed directory or a home directory with symbolic links that
 * lead out — a whole directory (`docs -> /etc`), a chain of links, a relative
 * `..` link, /proc, a tracked directory replaced by a link — and imports
 * through them. The outside files carry a unique marker that must appear in
 * no output and no file rulec read; the refusal is a coded diagnostic.
 */
import { execFileSync } from 'node:child_process';
import { renameSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.js';
import { codes, expectNoLeak } from './leaks.js';
import { makeTree, remove, write, type Made, type Tree } from './tree.js';

const made: Made[] = [];
afterAll(() => made.forEach(remove));

function tree(repo: Tree, opts: Parameters<typeof makeTree>[1] = {}): Made {
  const m = makeTree(repo, opts);
  made.push(m);
  return m;
}

const build = (m: Made, extra: { managed?: boolean; home?: boolean; includeLocal?: boolean } = {}) =>
  compile({
    repoDir: m.repo, outDir: join(m.dir, 'out'), includeLocal: extra.includeLocal ?? false,
    ...(extra.managed ? { managedDir: m.managed } : {}), ...(extra.home ? { userHome: m.home } : {}),
  });

interface Row {
  name: string;
  repo: Tree;
  useGit?: boolean;
  /** [code, file] of the RC1xxx diagnostics expected. */
  expect: [string, string][];
}

const ROWS: Row[] = [
  { name: 'import through a committed directory link to an outside directory (docs -> outside)',
    repo: { 'CLAUDE.md': '# R\n\nSee @docs/secret.md\n', docs: { symlink: '{outside}' } }, expect: [['RC1002', 'CLAUDE.md']] },
  { name: 'the red-team repro: docs -> /etc, @docs/passwd',
    repo: { 'CLAUDE.md': '# R\n\n@docs/passwd\n', docs: { symlink: '/etc' } }, expect: [['RC1002', 'CLAUDE.md']] },
  { name: 'p -> /proc, @p/self/environ',
    repo: { 'CLAUDE.md': '# R\n\n@p/self/environ and @p/self/cmdline\n', p: { symlink: '/proc' } },
    expect: [['RC1002', 'CLAUDE.md'], ['RC1002', 'CLAUDE.md']] },
  { name: 'a relative link that climbs out (docs -> ../outside)',
    repo: { 'AGENTS.md': '# R\n', 'CLAUDE.md': '# R\n\n@docs/sub/secret.md\n', docs: { symlink: '../outside' } }, expect: [['RC1002', 'CLAUDE.md']] },
  { name: 'a chain of links, inside then out (a -> b, b -> outside)',
    repo: { 'CLAUDE.md': '# R\n\n@a/secret.md\n', a: { symlink: 'b' }, b: { symlink: '{outside}' } }, expect: [['RC1002', 'CLAUDE.md']] },
  { name: 'a link deeper in the path (x/y/z -> outside)',
    repo: { 'CLAUDE.md': '# R\n\n@x/y/z/sub/secret.md\n', 'x/y/keep.md': 'k\n', 'x/y/z': { symlink: '{outside}' } }, expect: [['RC1002', 'CLAUDE.md']] },
  { name: 'an instruction file inside a linked directory is not listed by git, and an import to it is refused',
    repo: { 'CLAUDE.md': '# R\n\n@vendor/AGENTS.md\n', vendor: { symlink: '{outside}' } }, expect: [['RC1002', 'CLAUDE.md']] },
  { name: 'an instruction file that is itself a link out (AGENTS.md -> outside/AGENTS.md)',
    repo: { 'AGENTS.md': { symlink: '{outside}/AGENTS.md' } }, expect: [['RC1002', 'AGENTS.md']] },
  { name: 'a nested instruction file through a linked parent, outside git',
    repo: { 'AGENTS.md': '# R\n', sub: { symlink: '{outside}/sub' }, 'CLAUDE.md': '# R\n\n@sub/secret.md\n' }, useGit: false,
    expect: [['RC1002', 'CLAUDE.md']] },
  { name: 'outside git: docs -> outside',
    repo: { 'CLAUDE.md': '# R\n\nSee @docs/secret.md\n', docs: { symlink: '{outside}' } }, useGit: false, expect: [['RC1002', 'CLAUDE.md']] },
  { name: 'an absolute import through a link inside the repository',
    repo: { 'CLAUDE.md': '# R\n\n@{repo}/docs/secret.md\n', docs: { symlink: '{outside}' } }, expect: [['RC1002', 'CLAUDE.md']] },
  { name: 'no existence probe: a missing file behind a link out is refused like an existing one',
    repo: { 'CLAUDE.md': '# R\n\n@docs/no-such-file-xyz.md\n@docs/passwd\n', docs: { symlink: '/etc' } },
    expect: [['RC1002', 'CLAUDE.md'], ['RC1002', 'CLAUDE.md']] },
  { name: 'no existence probe: a dangling link out is "outside", not "broken"',
    repo: { 'AGENTS.md': { symlink: '/nonexistent-dir-xyz/AGENTS.md' }, 'CLAUDE.md': '# R\n\n@x.md\n', 'x.md': { symlink: '../outside/none.md' } },
    expect: [['RC1002', 'AGENTS.md'], ['RC1002', 'CLAUDE.md']] },
  { name: 'a dangling link inside the repository is a broken link',
    repo: { 'AGENTS.md': { symlink: 'nowhere/AGENTS.md' } }, expect: [['RC1005', 'AGENTS.md']] },
  { name: 'a link loop on the way is a diagnostic, not a hang',
    repo: { 'CLAUDE.md': '# R\n\n@loop/x.md and @l1/x.md\n', loop: { symlink: 'loop' }, l1: { symlink: 'l2' }, l2: { symlink: 'l1' } },
    expect: [['RC1005', 'CLAUDE.md'], ['RC1005', 'CLAUDE.md']] },
];

describe('confinement: links out of the repository', () => {
  it.each(ROWS)('$name', async (row) => {
    const m = tree(row.repo, { useGit: row.useGit ?? true });
    const result = await build(m);
    expect(codes(result, 'RC1')).toEqual(row.expect);
    expectNoLeak(result, m.marker);
  });

  it('a tracked sub/AGENTS.md whose directory became a link out is refused, not bundled', async () => {
    const m = tree({ 'AGENTS.md': '# Root\n', 'sub/AGENTS.md': '# Sub\n\nReviewed text.\n', 'sub/a.ts': 'x\n' });
    renameSync(join(m.repo, 'sub'), join(m.dir, 'old-sub'));
    symlinkSync(join(m.outside, 'sub'), join(m.repo, 'sub'));
    const result = await build(m);
    expect(codes(result, 'RC1')).toEqual([['RC1002', 'sub/AGENTS.md']]);
    expect(result.resolution.sources.has('sub/AGENTS.md')).toBe(false);
    expectNoLeak(result, m.marker);
  });

  it('a link that stays inside the repository still loads, and records its real file', async () => {
    const m = tree({ 'CLAUDE.md': '# R\n\n@alias/x.md\n', 'real/x.md': '# X\n\ninside\n', alias: { symlink: 'real' } });
    const result = await build(m);
    expect(codes(result, 'RC1', 'RC2')).toEqual([]);
    expect(result.discovered.files.find((f) => f.id === 'alias/x.md')?.linkTarget).toBe('real/x.md');
    expect(result.variants[0]?.text).toContain('inside');
  });
});

describe('confinement: the managed directory and the user layer', () => {
  it('a managed file importing through a link out of the managed directory', async () => {
    const m = tree({ 'AGENTS.md': '# R\n' }, { managed: { 'base.md': '# Base\n\n@docs/secret.md\n', docs: { symlink: '{outside}' } } });
    const result = await build(m, { managed: true });
    expect(codes(result, 'RC1')).toEqual([['RC1002', 'managed://base.md']]);
    expectNoLeak(result, m.marker);
  });

  it('a managed file that is a link out, and one behind a linked directory', async () => {
    const m = tree({ 'AGENTS.md': '# R\n' }, { managed: { 'a.md': { symlink: '{outside}/secret.md' }, 'ok.md': '# ok\n' } });
    const result = await build(m, { managed: true });
    expect(codes(result, 'RC1')).toEqual([['RC1002', 'managed://a.md']]);
    expect(result.resolution.sources.has('managed://ok.md')).toBe(true);
    expectNoLeak(result, m.marker);
  });

  it('user files linked out of the home directory are refused', async () => {
    const m = tree({ 'AGENTS.md': '# R\n' }, { home: { '.claude': { symlink: '{outside}/.claude' }, '.codex/AGENTS.md': { symlink: '{outside}/AGENTS.md' } } });
    write(m.outside, { '.claude/rules/outside-rule-name.md': `${m.marker}\n` }, m);
    const result = await build(m, { home: true });
    expect(codes(result, 'RC1')).toEqual([['RC1002', 'user://.claude/CLAUDE.md'], ['RC1002', 'user://.codex/AGENTS.md']]);
    expectNoLeak(result, m.marker);
    // Not even the names of an outside directory's files are listed.
    expect(JSON.stringify(result.diagnostics)).not.toContain('outside-rule-name');
  });
});

describe('confinement: special files', () => {
  it('a FIFO instruction file (outside git) and a FIFO import are refused without blocking', async () => {
    const m = tree({ 'AGENTS.md': { fifo: true }, 'CLAUDE.md': '# R\n\n@pipe.md\n', 'pipe.md': { fifo: true } }, { useGit: false });
    const result = await build(m);
    expect(codes(result, 'RC1')).toEqual([['RC1007', 'AGENTS.md'], ['RC1007', 'CLAUDE.md']]);
  });

  it('a FIFO that replaced a tracked instruction file is refused', async () => {
    const m = tree({ 'AGENTS.md': '# R\n', 'sub/AGENTS.md': '# S\n' });
    rmSync(join(m.repo, 'sub', 'AGENTS.md'));
    execFileSync('mkfifo', [join(m.repo, 'sub', 'AGENTS.md')]);
    const result = await build(m);
    expect(codes(result, 'RC1')).toEqual([['RC1007', 'sub/AGENTS.md']]);
  });
});

describe('confinement: the repository policy file', () => {
  it('a committed .rulec/policy.yaml that links out is a configuration error naming the file, not read', async () => {
    const m = tree({ 'AGENTS.md': '# R\n', '.rulec/policy.yaml': { symlink: '{outside}/secret.md' } });
    const err = await build(m).then(() => null, (e: Error) => e);
    expect(err?.name).toBe('UsageError');
    expect(err?.message).toMatch(/cannot read policy file .*policy\.yaml: path leads outside its root/);
    expect(err?.message).not.toContain(m.marker);
  });

  it('a --policy FIFO is refused instead of blocking the build', async () => {
    const m = tree({ 'AGENTS.md': '# R\n', 'p.yaml': { fifo: true } }, { useGit: false });
    const err = await compile({ repoDir: m.repo, policyFile: join(m.repo, 'p.yaml') }).then(() => null, (e: Error) => e);
    expect(err?.message).toMatch(/cannot read policy file .*p\.yaml: is a named pipe/);
  });
});

describe('confinement: explain --profile reads through the same reader', () => {
  const io = () => {
    const out: string[] = [];
    return { out, io: { out: (t: string) => void out.push(t), err: (t: string) => void out.push(t), cwd: '/' } };
  };

  it.each(['claude-code', 'copilot-cli', 'gemini-cli', 'codex', 'qwen-code', 'cursor'])('%s: imports that climb out of the repository or home are never read', async (profile) => {
    const m = tree({
      'CLAUDE.md': '# R\n\n@~/../outside/secret.md\n@../outside/secret.md\n@{repo}/../outside/secret.md\n@docs/secret.md\n',
      'GEMINI.md': '# G\n\n@../outside/secret.md\n@./docs/secret.md\n', 'AGENTS.md': { symlink: '{outside}/AGENTS.md' },
      docs: { symlink: '{outside}' },
    }, { home: { '.claude/CLAUDE.md': '# H\n\n@../outside/secret.md\n', '.claude/rules/x.md': { symlink: '{outside}/secret.md' } } });
    const { explainCommand } = await import('../../src/cli/commands/explain.js');
    for (const text of [[], ['--text'], ['--format', 'json']]) {
      const o = io();
      const approve = profile === 'claude-code' ? ['--option', 'approve_external_imports=true'] : [];
      const code = await explainCommand(['.', '--repo', m.repo, '--profile', profile, '--home', m.home, ...approve, ...text], o.io);
      expect(code).toBe(0);
      expect(o.out.join('').includes(m.marker), `${profile} ${text.join(' ')} leaked`).toBe(false);
    }
  });
});

describe('confinement: the bundles/current pointer explain follows', () => {
  it.each<[string, Tree[string], RegExp]>([
    ['a path out of bundles/', '../../outside\n', /bundles\/current does not hold a bundle id/],
    ['a link out of the repository', { symlink: '{outside}/secret.md' }, /bundles\/current path leads outside its root/],
    ['a FIFO', { fifo: true }, /bundles\/current is a named pipe/],
  ])('a pointer that is %s is refused', async (_what, entry, expected) => {
    const m = tree({ 'AGENTS.md': '# R\n', 'bundles/current': entry }, { useGit: false });
    const { explainCommand } = await import('../../src/cli/commands/explain.js');
    const err = await explainCommand(['.'], { out: () => undefined, err: () => undefined, cwd: m.repo }).then(() => null, (e: Error) => e);
    expect(err?.message).toMatch(expected);
    expect(err?.message).not.toContain(m.marker);
  });
});
