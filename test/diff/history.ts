/**
 * Git fixture histories for diff and check tests: a repository made in a temp
 * directory with a base commit and head commits, each written by the test
 * from an inline file tree, at fixed dates (so commit ids are stable).
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { git, GIT_ADD_ALL, gitCommit, gitSteps, headCommit } from '../helpers/fixture-repo.js';
import { BASE_PREFIX } from '../helpers/repo-cache.js';

/** Path → content; null deletes the path; `{ link }` makes a symbolic link. */
export type TreeEdit = Record<string, string | null | { link: string }>;

export interface History {
  dir: string;
  repo: string;
  /** Commit ids by name, in the order made. */
  commits: Map<string, string>;
  commit(name: string, edit: TreeEdit): string;
  cleanup(): void;
}

/**
 * Base repositories made in this process, by their tree and branch: a table
 * test makes the same base for every case, and copying a small repository
 * costs far less than the four git processes that make it.
 */
const bases = new Map<string, { dir: string; commit: string }>();
process.once('exit', () => { for (const b of bases.values()) rmSync(b.dir, { recursive: true, force: true }); });

export function history(base: TreeEdit, branch = 'main'): History {
  const dir = mkdtempSync(join(tmpdir(), 'rulec-hist-'));
  const repo = join(dir, 'repo');
  const key = JSON.stringify([base, branch]);
  const made = bases.get(key);
  if (made) {
    cpSync(join(made.dir, 'repo'), repo, { recursive: true, verbatimSymlinks: true });
    return historyIn(dir, repo, new Map([['base', made.commit]]), 1);
  }
  mkdirSync(repo);
  git(repo, '-c', `init.defaultBranch=${branch}`, 'init', '-q', '--template=');
  const h = historyIn(dir, repo, new Map(), 0);
  const commit = h.commit('base', base);
  // Named for this process: the 'exit' handler above does not run when vitest ends a worker, so the
  // global setup removes the bases of processes that are gone (helpers/repo-cache.ts removeOrphans).
  const template = mkdtempSync(join(tmpdir(), `${BASE_PREFIX}${process.pid}-`));
  cpSync(repo, join(template, 'repo'), { recursive: true, verbatimSymlinks: true });
  bases.set(key, { dir: template, commit });
  return h;
}

/** Commit dates count up per history from `first`, so a case's commit ids never depend on which cases ran before it. */
function historyIn(dir: string, repo: string, commits: Map<string, string>, first: number): History {
  let tick = first;
  const h: History = {
    dir,
    repo,
    commits,
    commit(name, edit) {
      write(repo, edit);
      const date = `2026-01-01T00:${String(Math.floor(tick / 60) % 60).padStart(2, '0')}:${String(tick % 60).padStart(2, '0')}Z`;
      tick++;
      gitSteps(repo, [GIT_ADD_ALL, gitCommit(name)], { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date });
      const id = headCommit(repo);
      commits.set(name, id);
      return id;
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
  return h;
}

export function write(root: string, edit: TreeEdit): void {
  for (const [path, content] of Object.entries(edit)) {
    const abs = join(root, ...path.split('/'));
    if (content === null) {
      rmSync(abs, { force: true });
      continue;
    }
    mkdirSync(dirname(abs), { recursive: true });
    rmSync(abs, { force: true });
    if (typeof content === 'string') writeFileSync(abs, content);
    else symlinkSync(content.link, abs);
  }
}
