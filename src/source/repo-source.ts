/**
 * A repository's files as discovery sees them, from somewhere other than the
 * work tree: today a commit's tree read from git objects (git-tree.ts), so
 * `rulec check` and `rulec diff git:REF` compile any commit without touching
 * the work tree or the index. Discovery reads the work tree itself when it is
 * given no source.
 */
import { REPO_POLICY_PATH } from '../config/policy-path.js';
import { classifyPath } from '../formats/formats.js';
import { stripCredentials, type GitInfo } from './git-snapshot.js';
import { GitTree } from './git-tree.js';
import type { SourceRead } from './types.js';
import { configValue } from './git-simple.js';
import type { UndecodableNames } from '../util/path-bytes.js';

export interface RepoListing {
  /** Every path of the tree, sorted (what `git ls-files` lists in a checkout). */
  paths: string[];
  git: GitInfo;
  /** Paths whose names are not UTF-8, by decoded string (path-bytes.ts). */
  undecodable: UndecodableNames;
}

export interface RepoSource {
  /** `git:<ref>` — for reports. */
  readonly label: string;
  listing(): Promise<RepoListing>;
  /** Read a repository file, confined to the tree; `id` names it in diagnostics. */
  read(rel: string, id: string, maxBytes: number): SourceRead;
}

/** The tree of commit `rev` in the repository at `repoDir`. */
export async function gitSource(repoDir: string, rev: string): Promise<RepoSource> {
  const tree = await GitTree.open(repoDir, rev);
  // Every instruction file and the policy in one cat-file batch; imports and link targets are read
  // as they are found.
  await tree.prefetch(tree.paths.filter((p) => classifyPath(p) !== null || p === REPO_POLICY_PATH));
  return {
    label: `git:${rev}`,
    async listing() {
      const url = stripCredentials(await configValue(repoDir, 'remote.origin.url'));
      return { paths: tree.paths, git: { remote: url || null, commit: tree.commit, seq: tree.count, dirty: false }, undecodable: tree.undecodable };
    },
    read: (rel, id, maxBytes) => tree.read(rel, id, maxBytes),
  };
}
