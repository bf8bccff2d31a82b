/**
 * gitSnapshot (source/git-snapshot.ts): the git facts discovery reads, all
 * asked at once through one shell — outside a work tree, in one without a
 * commit, and in one with commits, a remote, a staged change and untracked
 * instruction files, ignored or not — and its index answer on its own (that
 * it comes before the walk ends is git-batch.test.ts's FIFO test).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gitSnapshot, mayBeInRepository, startGitSnapshot } from '../src/source/git-snapshot.js';
import { write } from './diff/history.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'rulec-snap-'));
  dirs.push(dir);
  write(dir, files);
  return dir;
}

const git = (dir: string, ...args: string[]): void => {
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd: dir, stdio: 'ignore' });
};

describe('gitSnapshot', () => {
  it('is null outside a work tree', async () => {
    expect(await gitSnapshot(tree({ 'AGENTS.md': '# a\n' }))).toBeNull();
  });

  it('in a repository without a commit: no commit, a count of 0, nothing staged, the index as it is', async () => {
    const dir = tree({ 'AGENTS.md': '# a\n', 'src/x.ts': '' });
    git(dir, 'init', '-q', '--template=');
    git(dir, 'add', 'AGENTS.md');
    const snap = await gitSnapshot(dir);
    expect(snap).toMatchObject({ commit: null, seq: 0, remote: null, tracked: ['AGENTS.md'], untracked: [], ignored: [] });
    expect([...snap!.staged]).toEqual([]);
  });

  it('with commits: HEAD, the count, the remote without credentials, staged paths, untracked instruction files ignored or not', async () => {
    const dir = tree({ 'AGENTS.md': '# a\n', '.gitignore': 'CLAUDE.local.md\n', 'src/x.ts': '' });
    git(dir, 'init', '-q', '--template=');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'one');
    git(dir, 'commit', '-q', '--allow-empty', '-m', 'two');
    git(dir, 'remote', 'add', 'origin', 'https://user:secret@example.com/org/repo.git');
    writeFileSync(join(dir, 'AGENTS.md'), '# changed\n');
    git(dir, 'add', 'AGENTS.md');
    writeFileSync(join(dir, 'CLAUDE.local.md'), 'mine\n');
    // A file named HEAD makes a bare `HEAD` argument ambiguous to diff and rev-list.
    writeFileSync(join(dir, 'HEAD'), '');
    mkdirSync(join(dir, 'pkg'));
    writeFileSync(join(dir, 'pkg', 'AGENTS.md'), 'new\n');
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: dir, encoding: 'utf8' }).trim();
    const snap = await gitSnapshot(dir);
    expect(snap).toMatchObject({
      commit: head, seq: 2, remote: 'https://example.com/org/repo.git',
      tracked: ['.gitignore', 'AGENTS.md', 'src/x.ts'], untracked: ['pkg/AGENTS.md'], ignored: ['CLAUDE.local.md'],
    });
    expect([...snap!.staged]).toEqual(['AGENTS.md']);
    expect(snap!.indexBlobs.get('AGENTS.md')).toBe(execFileSync('git', ['hash-object', 'AGENTS.md'], { cwd: dir, encoding: 'utf8' }).trim());
  });

  it('gives the index on its own: the tracked paths, their blobs and HEAD, as the snapshot holds them', async () => {
    const dir = tree({ 'AGENTS.md': '# a\n', 'b/CLAUDE.md': '# b\n' });
    git(dir, 'init', '-q', '--template=');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'one');
    writeFileSync(join(dir, 'b', 'AGENTS.md'), 'new\n');
    const { index, snapshot } = startGitSnapshot(dir);
    const [idx, snap] = [await index, await snapshot];
    expect(idx).toEqual({ tracked: ['AGENTS.md', 'b/CLAUDE.md'], indexBlobs: snap!.indexBlobs, undecodable: new Map(), commit: snap!.commit });
    expect(snap).toMatchObject({ tracked: ['AGENTS.md', 'b/CLAUDE.md'], untracked: ['b/AGENTS.md'], seq: 1 });
    expect(idx!.commit).toMatch(/^[0-9a-f]{40}$/);
  });

  it('outside a work tree, both answers are null', async () => {
    const { index, snapshot } = startGitSnapshot(tree({ 'AGENTS.md': '# a\n' }));
    expect([await index, await snapshot]).toEqual([null, null]);
  });
});

describe('mayBeInRepository: false only where git finds no repository', () => {
  /** Whether git, started in `dir`, finds a repository (a work tree or not). */
  const gitFinds = (dir: string, env: NodeJS.ProcessEnv = process.env): boolean =>
    spawnSync('git', ['rev-parse', '--git-dir'], { cwd: dir, env, stdio: 'ignore' }).status === 0;

  const root = tree({ 'plain/deep/AGENTS.md': '# a\n', 'repo/sub/AGENTS.md': '# b\n', 'elsewhere/AGENTS.md': '# c\n' });
  git(join(root, 'repo'), 'init', '-q', '--template=');
  git(join(root, 'repo'), 'commit', '-q', '--allow-empty', '-m', 'c');
  git(join(root, 'repo'), 'worktree', 'add', '-q', join(root, 'linked'));
  git(root, 'init', '-q', '--bare', '--template=', join(root, 'bare.git'));
  mkdirSync(join(root, 'bare.git', 'hooks-like'));
  // A link from outside into the repository, and a path that climbs back out through it.
  symlinkSync(join(root, 'repo', 'sub'), join(root, 'plain', 'into-repo'));

  it.each([
    ['a plain directory', 'plain/deep', false],
    ['a repository', 'repo', true],
    ['a directory in one', 'repo/sub', true],
    ['inside its .git', 'repo/.git/refs', true],
    ['a linked work tree (a .git file)', 'linked', true],
    ['a bare repository', 'bare.git', true],
    ['a directory in a bare repository', 'bare.git/hooks-like', true],
    ['a link from outside to a directory in a repository', 'plain/into-repo', true],
    ['a path climbing out of such a link', 'plain/into-repo/..', true],
  ])('%s', (_label, rel, expected) => {
    // Not join(): it would take `link/..` away before anything resolves the link.
    const dir = `${root}/${rel}`;
    // The scratch directory might itself lie in a repository; then everything is in one.
    const inRepo = expected || gitFinds(root);
    expect(mayBeInRepository(dir)).toBe(inRepo);
    expect(gitFinds(dir)).toBe(inRepo);
  });

  it('is true wherever GIT_DIR points git at a repository', () => {
    const env = { ...process.env, GIT_DIR: join(root, 'repo', '.git') };
    expect(mayBeInRepository(join(root, 'elsewhere'), env)).toBe(true);
    expect(gitFinds(join(root, 'elsewhere'), env)).toBe(true);
  });

  it('leaves to git a directory it cannot resolve', () => {
    expect(mayBeInRepository(join(root, 'no-such-dir'))).toBe(true);
  });
});
