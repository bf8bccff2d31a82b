/**
 * GitTree reads a commit from git objects only — never the work tree or the
 * index — and confines every read to the tree the way readConfined confines
 * the work tree: links resolve inside it, a link out of it is refused.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GitTree } from '../../src/source/git-tree.js';
import { git } from '../helpers/fixture-repo.js';
import { history, type History } from '../diff/history.js';

const made: History[] = [];
afterAll(() => { for (const h of made) h.cleanup(); });

function repo(): History {
  const h = history({
    'AGENTS.md': 'root rules\n',
    'docs/guide.md': 'guide\n',
    'CLAUDE.md': { link: 'AGENTS.md' },
    'packages/api/CLAUDE.md': { link: '../../docs/guide.md' },
    'shared': { link: 'docs' },
    'escape.md': { link: '../outside.md' },
    'absolute.md': { link: '/etc/passwd' },
    'broken.md': { link: 'nope.md' },
    'loop-a.md': { link: 'loop-b.md' },
    'loop-b.md': { link: 'loop-a.md' },
    'big.md': 'x'.repeat(5000),
  });
  made.push(h);
  return h;
}

const code = (r: ReturnType<GitTree['read']>): string => (r.ok ? 'ok' : r.missing ? 'missing' : r.diagnostic.code);

describe('GitTree', () => {
  it('reads a commit while the work tree and the index hold something else, and touches neither', async () => {
    const h = repo();
    const base = h.commits.get('base') as string;
    h.commit('head', { 'AGENTS.md': 'changed rules\n', 'new.md': 'new\n' });
    writeFileSync(join(h.repo, 'AGENTS.md'), 'uncommitted\n');
    const index = join(h.repo, '.git', 'index');
    const before = { index: readFileSync(index), mtime: statSync(index).mtimeMs };
    const tree = await GitTree.open(h.repo, base);
    expect(tree.commit).toBe(base);
    expect(tree.paths).toEqual(git(h.repo, 'ls-tree', '-r', '--name-only', '-z', base).split('\0').filter(Boolean).sort());
    expect(tree.paths).not.toContain('new.md');
    await tree.prefetch(['AGENTS.md']);
    const r = tree.read('AGENTS.md', 'AGENTS.md', 1 << 20);
    expect(r.ok && Buffer.from(r.bytes).toString()).toBe('root rules\n');
    expect(readFileSync(join(h.repo, 'AGENTS.md'), 'utf8')).toBe('uncommitted\n');
    expect(readFileSync(index)).toEqual(before.index);
    expect(statSync(index).mtimeMs).toBe(before.mtime);
  });

  it('opens a commit by name or by object id alike; a tag\'s id peels to its commit, and no other object opens', async () => {
    const h = repo();
    const base = h.commits.get('base') as string;
    git(h.repo, '-c', 'tag.gpgSign=false', 'tag', '-a', '-m', 'release', 'v1', base);
    const tagObject = git(h.repo, 'rev-parse', 'v1').trim();
    const blob = git(h.repo, 'rev-parse', `${base}:AGENTS.md`).trim();
    expect(tagObject).not.toBe(base);
    const byName = await GitTree.open(h.repo, 'main');
    for (const rev of [base, tagObject, 'v1']) {
      const tree = await GitTree.open(h.repo, rev);
      expect([tree.commit, tree.paths]).toEqual([base, byName.paths]);
    }
    for (const rev of [blob, '0'.repeat(40), 'nope']) await expect(GitTree.open(h.repo, rev)).rejects.toThrow(/is not a commit in/);
  });

  it('resolves links inside the tree (files and directories) to their real path', async () => {
    const tree = await GitTree.open(repo().repo, 'HEAD');
    const read = (p: string) => tree.read(p, p, 1 << 20);
    expect(read('CLAUDE.md')).toMatchObject({ ok: true, realRel: 'AGENTS.md' });
    expect(read('packages/api/CLAUDE.md')).toMatchObject({ ok: true, realRel: 'docs/guide.md' });
    expect(read('shared/guide.md')).toMatchObject({ ok: true, realRel: 'docs/guide.md' });
  });

  it.each([
    ['escape.md', 'RC1002'], ['absolute.md', 'RC1002'], ['broken.md', 'RC1005'], ['loop-a.md', 'RC1005'],
    ['../AGENTS.md', 'RC1002'], ['docs/../AGENTS.md', 'RC1002'], ['/etc/passwd', 'RC1002'], ['big.md', 'RC1006'],
    ['nothing.md', 'missing'], ['docs', 'missing'], ['AGENTS.md/x', 'missing'],
  ])('%s → %s', async (path, want) => {
    const tree = await GitTree.open(repo().repo, 'HEAD');
    expect(code(tree.read(path, path, 4096))).toBe(want);
  });

  it('refuses a name that is not a commit', async () => {
    const h = repo();
    await expect(GitTree.open(h.repo, 'no-such-branch')).rejects.toThrow(/not a commit/);
    await expect(GitTree.open(h.repo, '--output=/tmp/x')).rejects.toThrow(/not a git revision/);
  });

  it('says so when there is no repository to look in, or no directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rulec-no-git-'));
    // Even where the temporary directory lies inside some work tree: git looks no higher than it.
    const ceiling = process.env.GIT_CEILING_DIRECTORIES;
    process.env.GIT_CEILING_DIRECTORIES = dirname(dir);
    try {
      await expect(GitTree.open(dir, 'HEAD')).rejects.toThrow(`not a git repository: ${dir}`);
      await expect(GitTree.open(join(dir, 'missing'), 'HEAD')).rejects.toThrow(`repository directory not found: ${join(dir, 'missing')}`);
    } finally {
      if (ceiling === undefined) delete process.env.GIT_CEILING_DIRECTORIES;
      else process.env.GIT_CEILING_DIRECTORIES = ceiling;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
