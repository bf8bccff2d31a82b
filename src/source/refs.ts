/**
 * The commits `rulec check` compares: head as given (default HEAD), and base
 * as given or, by default, the merge base of head with the default branch —
 * origin/HEAD when the remote names one, else the first of main, master,
 * origin/main, origin/master that exists. The report says which was used.
 */
import { UsageError } from '../util/errors.js';
import type { CheckRef } from '../diff/check-model.js';
import { resolveCommit } from './git-tree.js';
import { run } from './git-run.js';

const FALLBACKS = ['main', 'master', 'origin/main', 'origin/master'];

export async function headRef(repoDir: string, ref: string | undefined): Promise<CheckRef> {
  const name = ref ?? 'HEAD';
  return { ref: name, commit: await resolveCommit(repoDir, name), how: ref === undefined ? 'HEAD (default)' : 'given with --head' };
}

/** `head` may still be resolving: the default branch is looked up meanwhile (the fast path of check counts git calls). */
export async function baseRef(repoDir: string, ref: string | undefined, heading: CheckRef | Promise<CheckRef>): Promise<CheckRef> {
  if (ref !== undefined) return { ref, commit: await resolveCommit(repoDir, ref), how: 'given with --base' };
  const [branch, head] = await Promise.all([defaultBranch(repoDir), heading]);
  if (branch === null) throw new UsageError(`no default branch to compare with (origin/HEAD, ${FALLBACKS.join(', ')}): pass --base REF`);
  let commit: string;
  try {
    commit = (await run(repoDir, ['merge-base', head.commit, branch.commit])).toString('utf8').trim();
  } catch {
    throw new UsageError(`${head.ref} and ${branch.name} have no common ancestor: pass --base REF`);
  }
  return { ref: `merge-base(${head.ref}, ${branch.name})`, commit, how: `merge base of ${head.ref} with the default branch ${branch.name} (${branch.why})` };
}

async function defaultBranch(repoDir: string): Promise<{ name: string; commit: string; why: string } | null> {
  try {
    const name = (await run(repoDir, ['symbolic-ref', '--quiet', '--short', 'refs/remotes/origin/HEAD'])).toString('utf8').trim();
    if (name !== '') return { name, commit: await resolveCommit(repoDir, name), why: 'origin/HEAD' };
  } catch {
    // no origin/HEAD: try the usual names
  }
  for (const name of FALLBACKS) {
    try {
      return { name, commit: await resolveCommit(repoDir, name), why: 'origin/HEAD is not set' };
    } catch {
      // not a branch here
    }
  }
  return null;
}

