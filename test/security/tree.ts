/**
 * Inline file trees for the security tests: a repository beside an "outside"
 * directory whose files all carry a unique marker, so a test can assert that
 * no byte from outside the roots reaches any output or bundle file.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { GIT_ADD_ALL, GIT_INIT, gitCommit, gitSteps } from '../helpers/fixture-repo.js';

export type Entry = string | { symlink: string } | { fifo: true };
export type Tree = Record<string, Entry>;

export interface Made {
  dir: string;
  repo: string;
  outside: string;
  managed: string;
  home: string;
  marker: string;
}

let count = 0;

/** A marker no real file contains: found in any output, it proves a leak. */
export function newMarker(): string {
  count++;
  return `OUTSIDE-MARKER-${process.pid}-${count}-${Math.random().toString(36).slice(2)}`;
}

/**
 * `{dir}/repo` (from `repo`), `{dir}/managed`, `{dir}/home` and `{dir}/outside`
 * (secret.md, AGENTS.md, CLAUDE.md, sub/secret.md, all with the marker).
 * Symlink targets may use `{outside}`, `{dir}`; file texts may use `{repo}`
 * (the repository's real path, for absolute imports). The repository is
 * committed to git unless `useGit` is false.
 */
export function makeTree(repo: Tree, opts: { useGit?: boolean; managed?: Tree; home?: Tree } = {}): Made {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'rulec-sec-')));
  const marker = newMarker();
  const m: Made = { dir, repo: join(dir, 'repo'), outside: join(dir, 'outside'), managed: join(dir, 'managed'), home: join(dir, 'home'), marker };
  write(m.outside, {
    'secret.md': `# Secret\n\n${marker}\n`, 'AGENTS.md': `# Outside\n\n${marker}\n`, 'CLAUDE.md': `# Outside\n\n${marker}\n`,
    'sub/secret.md': `${marker}\n`, 'sub/AGENTS.md': `# Outside sub\n\n${marker}\n`, '.claude/CLAUDE.md': `${marker}\n`,
  }, m);
  mkdirSync(m.repo, { recursive: true });
  mkdirSync(m.managed, { recursive: true });
  mkdirSync(m.home, { recursive: true });
  write(m.repo, repo, m);
  if (opts.managed) write(m.managed, opts.managed, m);
  if (opts.home) write(m.home, opts.home, m);
  if (opts.useGit !== false) commitAll(m.repo);
  return m;
}

export function commitAll(repo: string): void {
  gitSteps(repo, [GIT_INIT, GIT_ADD_ALL, gitCommit('tree')]);
}

export function write(root: string, tree: Tree, m: Pick<Made, 'dir' | 'outside'>): void {
  for (const [rel, entry] of Object.entries(tree)) {
    const abs = join(root, ...rel.split('/'));
    mkdirSync(dirname(abs), { recursive: true });
    if (typeof entry === 'string') writeFileSync(abs, entry.replaceAll('{repo}', join(m.dir, 'repo')));
    else if ('symlink' in entry) symlinkSync(entry.symlink.replace('{outside}', m.outside).replace('{dir}', m.dir), abs);
    else execFileSync('mkfifo', [abs]);
  }
}

export function remove(m: Made): void {
  rmSync(m.dir, { recursive: true, force: true });
}
