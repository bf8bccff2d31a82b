/**
 * Fixture repositories (test/fixtures/<case>/{repo,managed,case.json}, or any
 * source tree): a copy of repo/ that is optionally a git repository with one
 * commit at a fixed date, with the case's `untracked` files left out of git
 * and ignored, as personal files are in real checkouts.
 *
 * Each is built once into the shared cache (repo-cache.ts). `sharedCase` and
 * `sharedTreeOf` hand out that tree itself — read-only: compile it, lint it,
 * build it with `--out` elsewhere. `materialiseCase` and `materialiseTree`
 * hand out a private writable copy in a temp dir (the caller removes `dir`).
 */
import { createHash, type Hash } from 'node:crypto';
import { appendFileSync, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { copyTree, hashTree, sharedTree, type Command, type Recipe } from './repo-cache.js';
import { shSync } from './sync-shell.js';
import { quote } from '../../src/source/shell-host.js';
import { definedEnv } from '../../src/source/git-env.js';

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

// No automatic maintenance after a commit: each `git commit` would start `git maintenance run
// --auto` (a process that finds nothing to do in a repository of a few commits). Added after the
// settings the caller's environment gives git this way (a CI job's safe.directory), not over them.
const CONFIG_FROM_ENV = Number.parseInt(process.env.GIT_CONFIG_COUNT ?? '0', 10) || 0;
const GIT_ENV = {
  GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_COUNT: String(CONFIG_FROM_ENV + 1),
  [`GIT_CONFIG_KEY_${CONFIG_FROM_ENV}`]: 'maintenance.auto', [`GIT_CONFIG_VALUE_${CONFIG_FROM_ENV}`]: 'false',
  GIT_AUTHOR_NAME: 'fixture', GIT_AUTHOR_EMAIL: 'fixture@example.invalid',
  GIT_COMMITTER_NAME: 'fixture', GIT_COMMITTER_EMAIL: 'fixture@example.invalid',
  GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z',
};

export function git(cwd: string, ...args: string[]): string {
  return shSync(gitScript([args]), cwd, { ...definedEnv(), ...GIT_ENV });
}

/**
 * An empty bare repository at `path`, as a remote for the registry's git store. It does not run
 * `git gc --auto` after each push it receives (receive.autogc): one process per push fewer, for a
 * repository of a few dozen commits.
 */
export function bareRepository(path: string): string {
  shSync(gitScript([['init', '--quiet', '--bare', path]]), '.', { ...definedEnv(), ...GIT_ENV });
  appendFileSync(join(path, 'config'), '[receive]\n\tautogc = false\n');
  return path;
}

/** The commit HEAD names in `repo`'s work tree: read from .git (a loose ref, as a fresh test repository has), else asked of git. */
export function headCommit(repo: string): string {
  const head = readFileSync(join(repo, '.git', 'HEAD'), 'utf8').trim();
  const ref = /^ref: (refs\/[^\0]+)$/.exec(head)?.[1];
  if (ref === undefined) return head;
  const file = join(repo, '.git', ...ref.split('/'));
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : git(repo, 'rev-parse', 'HEAD').trim();
}

/**
 * Several git commands in one shell, stopping at the first that fails; their output joined. A test
 * worker holds hundreds of megabytes, and every process it starts copies its page tables (10–30 ms
 * each on this machine), while the shell starting git costs about one: a commit is no process of
 * the worker's at all (sync-shell.ts), and one request, not three.
 */
export function gitSteps(cwd: string, steps: readonly (readonly string[])[], env: Record<string, string> = {}): string {
  return shSync(gitScript(steps), cwd, { ...definedEnv(), ...GIT_ENV, ...env });
}

/** `git 'a' 'b' && git 'c' …`: each argument single-quoted for sh. */
function gitScript(steps: readonly (readonly string[])[]): string {
  return steps.map((args) => ['git', ...args.map(quote)].join(' ')).join(' && ');
}

/** The steps (for gitSteps) that make test commits: a repository on `main` without templates, everything added, a commit. */
export const GIT_INIT: readonly string[] = ['-c', 'init.defaultBranch=main', 'init', '-q', '--template='];
export const GIT_ADD_ALL: readonly string[] = ['-c', 'core.autocrlf=false', 'add', '-A'];
export function gitCommit(message: string): string[] {
  return ['-c', 'commit.gpgsign=false', 'commit', '-q', '--no-verify', '--allow-empty', '-m', message];
}

/** The git commands that make `repo/` one commit (prepare has already excluded the untracked files), in one shell. */
const GIT_COMMANDS: Command[] = [{
  file: '/bin/sh',
  args: ['-c', gitScript([GIT_INIT, GIT_ADD_ALL, gitCommit('fixture')])],
  cwd: 'repo',
  env: GIT_ENV,
}];

/**
 * A recipe for `<root>/repo` (from `files`, a function that writes the repo's
 * files) and `<root>/managed` (a copy of managedSrc, when it exists), made a
 * git repository unless `useGit` is false.
 */
export function repoRecipe(id: string, opts: {
  inputs: (hash: Hash) => void;
  files: (repo: string) => void;
  managedSrc?: string | undefined;
  untracked?: readonly string[];
  useGit: boolean;
}): Recipe {
  const untracked = opts.untracked ?? [];
  return {
    id,
    inputs: (hash) => {
      hash.update(readFileSync(import.meta.filename));
      hash.update(JSON.stringify({ untracked, useGit: opts.useGit }));
      opts.inputs(hash);
      if (opts.managedSrc) hashTree(hash, opts.managedSrc, 'managed');
    },
    prepare: (root) => {
      const repo = join(root, 'repo');
      mkdirSync(repo);
      opts.files(repo);
      if (opts.managedSrc && existsSync(opts.managedSrc)) cpSync(opts.managedSrc, join(root, 'managed'), { recursive: true, verbatimSymlinks: true });
      if (opts.useGit && untracked.length > 0) {
        // Ignored before `git add -A`, so they stay out of the index, as personal files do.
        mkdirSync(join(repo, '.git', 'info'), { recursive: true });
        writeFileSync(join(repo, '.git', 'info', 'exclude'), `${untracked.map((u) => `/${u}`).join('\n')}\n`);
      }
    },
    commands: () => (opts.useGit ? GIT_COMMANDS : []),
  };
}

/** The recipe for a copy of the tree `src` (and `managedSrc`). */
export function treeRecipe(src: string, spec: CaseSpec = {}, useGit = true, managedSrc?: string): Recipe {
  // Trees of other arguments get other ids, so pruning an id's older builds never removes theirs.
  const label = createHash('sha256').update(JSON.stringify([src, managedSrc ?? null, spec.untracked ?? []])).digest('hex').slice(0, 8);
  return repoRecipe(`tree-${src.split('/').filter(Boolean).slice(-2).join('_').replace(/[^\w.-]/g, '_')}-${label}-${useGit ? 'git' : 'plain'}`, {
    inputs: (hash) => hashTree(hash, src, 'repo'),
    files: (repo) => cpSync(src, repo, { recursive: true, verbatimSymlinks: true }),
    managedSrc, untracked: spec.untracked ?? [], useGit,
  });
}

function caseSpec(name: string): CaseSpec {
  return JSON.parse(readFileSync(join(FIXTURES, name, 'case.json'), 'utf8')) as CaseSpec;
}

export function caseRecipe(name: string, useGit = true): Recipe {
  const base = join(FIXTURES, name);
  return { ...treeRecipe(join(base, 'repo'), caseSpec(name), useGit, join(base, 'managed')), id: `fixture-${name}-${useGit ? 'git' : 'plain'}` };
}

/** A built tree as a Materialised: `<dir>/repo`, `<dir>/managed` when there is one. */
export function materialisedAt(dir: string, spec: CaseSpec = {}): Materialised {
  const managed = existsSync(join(dir, 'managed')) ? join(dir, 'managed') : null;
  const args = (spec.build ?? []).map((a) => (a === '{managed}' ? managed ?? '' : a));
  return { dir, repo: join(dir, 'repo'), managed, spec, args };
}

/** The shared, read-only tree of a fixture case. Never write into it, never remove it. */
export function sharedCase(name: string, useGit = true): Materialised {
  return materialisedAt(sharedTree(caseRecipe(name, useGit)), caseSpec(name));
}

/** The shared, read-only copy of a source tree. Never write into it, never remove it. */
export function sharedTreeOf(src: string, spec: CaseSpec = {}, useGit = true, managedSrc?: string): Materialised {
  return materialisedAt(sharedTree(treeRecipe(src, spec, useGit, managedSrc)), spec);
}

/** A private, writable copy of a source tree in a fresh temp dir, a git repository unless `useGit` is false; the caller removes `dir`. */
export function materialiseTree(src: string, spec: CaseSpec = {}, useGit = true, managedSrc?: string): Materialised {
  return materialisedAt(copyTree(sharedTree(treeRecipe(src, spec, useGit, managedSrc))), spec);
}

/** A private, writable copy of a fixture case; the caller removes `dir`. */
export function materialiseCase(name: string, useGit = true): Materialised {
  return materialisedAt(copyTree(sharedTree(caseRecipe(name, useGit))), caseSpec(name));
}

/** Compile options equivalent to a case's CLI build args. */
export function optionsFromArgs(m: Materialised): { repoDir: string; managedDir?: string; includeLocal: boolean } {
  const i = m.args.indexOf('--managed');
  return { repoDir: m.repo, ...(i >= 0 && m.args[i + 1] ? { managedDir: m.args[i + 1] as string } : {}), includeLocal: m.args.includes('--include-local') };
}
