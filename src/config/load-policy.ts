/**
 * Load the effective policy (I/O): the built-in policies/default.yaml, merged
 * with the repository's policy file when there is one. Pure validation lives
 * in validatePolicy so it can be tested on inline text.
 */
import { REPO_POLICY_PATH } from './policy-path.js';
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { parse } from 'yaml';
import { readConfined } from '../confined/read-confined.js';
import { UsageError } from '../util/errors.js';
import { readPackageFile, readPackageJson } from './package-files.js';
import { validatePolicy } from './validate-policy.js';
import type { Policy } from './policy.js';
import type { StageResult } from '../types.js';
import { realPath } from '../util/real-path.js';


export interface LoadedPolicy {
  policy: Policy;
  /** The file the repository's policy came from, if any (for messages). */
  file: string | null;
}

/**
 * @param readRepoFile when the repository is not the work tree (a commit's
 * tree): reads a repository file's text, null when it does not exist.
 * @param repoPolicyPath where the repository keeps its policy (read through
 * readRepoFile; default .rulec/policy.yaml).
 */
export function loadPolicy(repoDir: string, policyFile?: string, readRepoFile?: (rel: string) => string | null, repoPolicyPath = REPO_POLICY_PATH): StageResult<LoadedPolicy> {
  const base = builtInPolicy();
  const fromTree = policyFile === undefined && readRepoFile ? readRepoFile(repoPolicyPath) : null;
  const file = policyFile ?? (fromTree !== null ? repoPolicyPath : readRepoFile ? null : existsSync(join(repoDir, repoPolicyPath)) ? join(repoDir, repoPolicyPath) : null);
  if (!file) return { value: { policy: base, file: null }, diagnostics: [] };
  // A commit's tree is read from git objects (no link can leave it); the work tree through readConfined.
  const text = fromTree ?? readPolicyText(repoDir, file, policyFile === undefined);
  const merged = validatePolicy(policyFile ?? REPO_POLICY_PATH, text, base, readPackageJson('schemas/policy.schema.json'));
  return { value: { policy: merged.value ?? base, file }, diagnostics: merged.diagnostics };
}

/**
 * policies/default.yaml, parsed. It ships with rulec and is not checked against the schema at run
 * time (compiling the schema was a tenth of every build's start-up); test/unit/policy.test.ts
 * checks it.
 */
export function builtInPolicy(): Policy {
  return parse(readPackageFile('policies/default.yaml')) as Policy;
}


/** A policy file is small; anything larger is not one. */
const MAX_POLICY_BYTES = 1 << 20;

/**
 * The repository's own policy file is an input like any other: read through
 * readConfined, so a committed `.rulec/policy.yaml -> /etc/…` is refused. A
 * --policy FILE is the caller's choice and may be a link anywhere, but it must
 * still be a regular file (a FIFO would block the build).
 */
function readPolicyText(repoDir: string, file: string, fromRepo: boolean): string {
  let root: string;
  let rel: string;
  try {
    if (fromRepo) {
      root = realPath(repoDir);
      rel = REPO_POLICY_PATH;
    } else {
      const real = realPath(file);
      root = dirname(real);
      rel = basename(real);
    }
  } catch (e) {
    throw new UsageError(`cannot read policy file ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const read = readConfined(root, rel, file, MAX_POLICY_BYTES);
  if (read.ok) return Buffer.from(read.bytes).toString('utf8');
  throw new UsageError(`cannot read policy file ${file}: ${read.missing ? 'not a readable regular file' : read.diagnostic.message}`);
}

