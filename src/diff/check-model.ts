/**
 * What `rulec check` produces (schemas/check.schema.json): the bundle diff
 * of a change, the risk findings of the risk table, the approvals they need
 * and the verdict. Plain JSON-able values.
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { BundleDiff } from './bundle-diff.js';

export const CHECK_SCHEMA_ID = 'https://rulec.dev/schemas/check-v1.json';

export type RiskLevel = 'high' | 'medium' | 'low';

/** One change matched by a row of the risk table (src/diff/risk.ts). */
export interface RiskFinding {
  level: RiskLevel;
  /** The table row: 'external-download', 'deploy-command', 'test-command', 'wording' … */
  check: string;
  why: string;
  /** Source file on the new side (old side for removals); '' for the policy. */
  source: string;
  rule: string | null;
  line: number | null;
  /** The matching line or value. */
  excerpt: string | null;
  /** Owners (teams and users) that may approve it, from the base policy's risk owners. */
  owners: string[];
}

/** One approval requirement: a risk level, the owners that must approve and what the approvals say. */
export interface ApprovalRequirement {
  level: RiskLevel;
  /** Source files of the findings this requirement covers. */
  sources: string[];
  /** Any one of these (a user `alice`, a team `@org/team`); empty: any approver. */
  owners: string[];
  needed: number;
  approved_by: string[];
  satisfied: boolean;
}

export interface RiskAssessment {
  /** The highest level found; 'none' when nothing changed. */
  level: RiskLevel | 'none';
  /** Highest level first, then by source, line and check. */
  findings: RiskFinding[];
  requirements: ApprovalRequirement[];
  /** Every requirement satisfied. */
  approved: boolean;
}

/** The approvals rulec read (approvals contract, README "Reviewing changes"). */
export interface ApprovalsInput {
  /** Where they came from: the file path, `env:RULEC_APPROVALS`, or null when none were given. */
  from: string | null;
  /** The head commit the approvals were given for, as the file says. */
  head: string | null;
  approvers: string[];
  teams: Record<string, string[]>;
}

export interface CheckRef {
  /** As given (`--base origin/main`) or chosen (`merge-base of HEAD and origin/main`). */
  ref: string;
  commit: string;
  /** How it was chosen when not given: 'merge base with origin/HEAD (origin/main)' … */
  how: string;
}

export type CheckVerdict = 'pass' | 'fail';

export interface CheckReport {
  schema: typeof CHECK_SCHEMA_ID;
  base: CheckRef;
  head: CheckRef;
  /** Changed paths between base and head that can change the bundle (sorted). */
  changed: string[];
  /** True when no rule file changed: nothing was compiled. */
  skipped: boolean;
  diff: BundleDiff | null;
  risk: RiskAssessment | null;
  approvals: ApprovalsInput;
  /** Head's diagnostics plus the check's own (RC8xxx), sorted. */
  diagnostics: Diagnostic[];
  verdict: CheckVerdict;
  /** Why it fails (empty on pass): one line each. */
  reasons: string[];
}
