/**
 * What an argument of `rulec diff OLD NEW` names (I/O: it looks at the disk
 * and asks git). The rule, in order:
 *
 * 1. An explicit prefix decides: `bundle:PATH` (a bundle directory, or a
 *    bundles directory whose `current` names one), `git:REF` (a commit-ish of
 *    the repository, compiled from git objects), `worktree:` (the work tree).
 * 2. Otherwise an existing directory holding manifest.json or a `current`
 *    pointer is a bundle, and a name git resolves to a commit is a git ref.
 * 3. A name that is both is refused as ambiguous (write the prefix); a name
 *    that is neither is refused.
 */
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CURRENT_POINTER, MANIFEST_FILE } from '../bundle/layout.js';
import { UsageError } from '../util/errors.js';
import { resolveCommit } from './git-tree.js';

export type SideSpec =
  | { kind: 'bundle'; dir: string; label: string }
  | { kind: 'git'; rev: string; commit: string; label: string }
  | { kind: 'worktree'; label: string };

export const SIDE_SYNTAX = 'bundle:PATH, git:REF or worktree:';

export async function resolveSide(arg: string, repoDir: string, cwd: string): Promise<SideSpec> {
  if (arg.startsWith('bundle:')) return bundleSide(resolve(cwd, arg.slice(7)), arg);
  if (arg.startsWith('git:')) return gitSide(arg.slice(4), repoDir);
  if (arg === 'worktree:') return { kind: 'worktree', label: 'worktree:' };
  if (arg.startsWith('worktree:')) throw new UsageError(`worktree: takes no argument (the work tree is --repo's): ${arg}`);
  const dir = resolve(cwd, arg);
  const isBundle = isDir(dir) && (existsSync(join(dir, MANIFEST_FILE)) || existsSync(join(dir, CURRENT_POINTER)));
  const commit = await resolveCommit(repoDir, arg).catch(() => null);
  if (isBundle && commit !== null) throw new UsageError(`"${arg}" is both a bundle directory and a git revision: write bundle:${arg} or git:${arg}`);
  if (isBundle) return bundleSide(dir, `bundle:${arg}`);
  if (commit !== null) return { kind: 'git', rev: arg, commit, label: `git:${arg}` };
  throw new UsageError(`"${arg}" is neither a bundle directory nor a git revision of ${repoDir} (write ${SIDE_SYNTAX})`);
}

function bundleSide(dir: string, label: string): SideSpec {
  if (!isDir(dir)) throw new UsageError(`not a directory: ${dir}`);
  return { kind: 'bundle', dir, label };
}

async function gitSide(rev: string, repoDir: string): Promise<SideSpec> {
  if (rev === '') throw new UsageError('git: needs a revision, e.g. git:main');
  return { kind: 'git', rev, commit: await resolveCommit(repoDir, rev), label: `git:${rev}` };
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
