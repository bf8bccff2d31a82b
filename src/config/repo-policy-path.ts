/** Where a repository keeps its own policy when --policy is not given (a module of its own, so the CLI's fast paths need not load the policy validator). */
export const REPO_POLICY_PATH = '.rulec/policy.yaml';
