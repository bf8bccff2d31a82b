/**
 * Load the effective policy (I/O): the built-in policies/default.yaml, merged
 * with the repository's policy file when there is one. Pure validation lives
 * in validatePolicy so it can be tested on inline text.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../diagnostics/errors.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { readPackageFile, readPackageJson } from './package-files.js';
import { validatePolicy } from './validate-policy.js';
import type { Policy } from './policy.js';

import { REPO_POLICY_PATH } from './repo-policy-path.js';

export { REPO_POLICY_PATH };

export interface LoadedPolicy {
  policy: Policy;
  /** The file the repository's policy came from, if any (for messages). */
  file: string | null;
  diagnostics: Diagnostic[];
}

/**
 * @param readRepoFile when the repository is not the work tree (a commit's
 * tree): reads a repository file's text, null when it does not exist.
 * @param repoPolicyPath where the repository keeps its policy (read through
 * readRepoFile; default .rulec/policy.yaml).
 */
export function loadPolicy(repoDir: string, policyFile?: string, readRepoFile?: (rel: string) => string | null, repoPolicyPath = REPO_POLICY_PATH): LoadedPolicy {
  const schema = readPackageJson('schemas/policy.schema.json');
  const base = validatePolicy('policies/default.yaml', readPackageFile('policies/default.yaml'), null, schema);
  if (!base.value) throw new Error(`built-in policy is invalid: ${base.diagnostics.map((d) => d.message).join('; ')}`);
  const fromTree = policyFile === undefined && readRepoFile ? readRepoFile(repoPolicyPath) : null;
  const file = policyFile ?? (fromTree !== null ? repoPolicyPath : readRepoFile ? null : existsSync(join(repoDir, REPO_POLICY_PATH)) ? join(repoDir, REPO_POLICY_PATH) : null);
  if (!file) return { policy: base.value, file: null, diagnostics: [] };
  let text: string;
  try {
    text = fromTree ?? readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read policy file ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const merged = validatePolicy(policyFile ?? REPO_POLICY_PATH, text, base.value, schema);
  return { policy: merged.value ?? base.value, file, diagnostics: merged.diagnostics };
}

