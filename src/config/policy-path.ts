/** Where a repository keeps its policy, relative to the repository root (a constant of its own: the CLI reads it without loading the policy loader). */
export const REPO_POLICY_PATH = '.rulec/policy.yaml';
