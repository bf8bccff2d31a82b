/**
 * The policy of a commit's tree: its .rulec/policy.yaml, or the policy file
 * named inside the repository as that file of the tree (so base and head each
 * bring their own); a policy file outside the repository is read from disk.
 */
import { isAbsolute, relative } from 'node:path';
import { loadPolicy, type LoadedPolicy } from '../config/load-policy.js';
import { UsageError } from '../util/errors.js';
import { toPosix } from '../util/posix-path.js';
import type { RepoSource } from './repo-source.js';
import type { StageResult } from '../types.js';

export function policyOfTree(repoDir: string, source: RepoSource, policyFile: string | undefined): StageResult<LoadedPolicy> {
  const rel = policyFile === undefined ? undefined : relative(repoDir, policyFile);
  if (rel !== undefined && (rel === '' || rel.startsWith('..') || isAbsolute(rel))) return loadPolicy(repoDir, policyFile);
  const read = (path: string): string | null => {
    const r = source.read(path, path, 1 << 20);
    if (r.ok) return Buffer.from(r.bytes).toString('utf8');
    if (r.missing) return null;
    throw new UsageError(`cannot read ${path} in ${source.label}: ${r.diagnostic.message}`);
  };
  return loadPolicy(repoDir, undefined, read, rel === undefined ? undefined : toPosix(rel));
}
