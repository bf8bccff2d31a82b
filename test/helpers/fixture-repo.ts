/**
 * Materialise a fixture (test/fixtures/<case>/{repo,managed,case.json}) in a
 * temp dir: a copy of repo/ that is optionally a git repository with one
 * commit at a fixed date, with the case's `untracked` files left out of git
 * and ignored, as personal files are in real checkouts.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';

export const FIXTURES = join(import.meta.dirname, '..', 'fixtures');

export interface CaseSpec {
  description?: string;
  build?: string[];
  untracked?: string[];
  explain?: string[];
}

export interface Materialised {
  dir: string;
  repo: string;
  managed: string | null;
  spec: CaseSpec;
  /** build args with {managed} substituted. */
  args: string[];
}

export function fixtureCases(): string[] {
  return readdirSync(FIXTURES).filter((d) => existsSync(join(FIXTURES, d, 'case.json'))).sort();
}

const GIT_ENV = {
  GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'fixture', GIT_AUTHOR_EMAIL: 'fixture@example.invalid',
  GIT_COMMITTER_NAME: 'fixture', GIT_COMMITTER_EMAIL: 'fixture@example.invalid',
  GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z',
};

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: { ...process.env, ...GIT_ENV }, encoding: 'utf8' });
}

/** Copy a source tree to a fresh temp dir as `repo/`, and make it a git repository unless `useGit` is false. */
export function materialiseTree(src: string, spec: CaseSpec = {}, useGit = true, managedSrc?: string): Materialised {
  const dir = mkdtempSync(join(tmpdir(), 'rulec-fx-'));
  const repo = join(dir, 'repo');
  cpSync(src, repo, { recursive: true, verbatimSymlinks: true });
  let managed: string | null = null;
  if (managedSrc && existsSync(managedSrc)) {
    managed = join(dir, 'managed');
    cpSync(managedSrc, managed, { recursive: true, verbatimSymlinks: true });
  }
  if (useGit) {
    git(repo, '-c', 'init.defaultBranch=main', 'init', '-q', '--template=');
    git(repo, '-c', 'core.autocrlf=false', 'add', '-A');
    const untracked = spec.untracked ?? [];
    if (untracked.length > 0) {
      git(repo, 'rm', '-q', '--cached', '--', ...untracked);
      mkdirSync(join(repo, '.git', 'info'), { recursive: true });
      writeFileSync(join(repo, '.git', 'info', 'exclude'), `${untracked.map((u) => `/${u}`).join('\n')}\n`);
    }
    git(repo, '-c', 'commit.gpgsign=false', 'commit', '-q', '--no-verify', '--allow-empty', '-m', 'fixture');
  }
  const args = (spec.build ?? []).map((a) => (a === '{managed}' ? managed ?? '' : a));
  return { dir, repo, managed, spec, args };
}

export function materialiseCase(name: string, useGit = true): Materialised {
  const base = join(FIXTURES, name);
  const spec = JSON.parse(readFileSync(join(base, 'case.json'), 'utf8')) as CaseSpec;
  return materialiseTree(join(base, 'repo'), spec, useGit, join(base, 'managed'));
}

/** Compile options equivalent to a case's CLI build args. */
export function optionsFromArgs(m: Materialised): { repoDir: string; managedDir?: string; includeLocal: boolean } {
  const i = m.args.indexOf('--managed');
  return { repoDir: m.repo, ...(i >= 0 && m.args[i + 1] ? { managedDir: m.args[i + 1] as string } : {}), includeLocal: m.args.includes('--include-local') };
}
