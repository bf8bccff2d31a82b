/** Codes for reviewing changes: `rulec diff` and `rulec check` (RC8xxx). */
import type { CatalogueEntry } from './catalogue-entry.js';

export const DIFF_CODES: CatalogueEntry[] = [
  { code: 'RC8001', severity: 'error', title: 'risky change without the approvals it needs',
    hint: 'ask an owner named in the message to approve the pull request, then run rulec check again',
    explanation: 'rulec check classified a change to an instruction file (or to the policy) in a risk class whose policy requires approvals (risk.classes.<class>.approvals, default: one approval for high risk), and the approvals contract does not name enough approvers among the owners of that file. High risk covers downloads piped to a shell, deploy/publish/release commands, credentials and permissions, disabled tests/hooks/verification, a rule widened to the whole repository, any change to a managed or enforced rule, and policy changes. The owners and the number of approvals come from the base commit\'s policy, so a pull request cannot lower its own bar; this code cannot be relaxed by a policy.' },
  { code: 'RC8002', severity: 'warning', title: 'high-risk change',
    explanation: 'A change that the risk table classes as high risk, and that has the approvals it needs (or whose class needs none). Shown so that a reviewer sees it next to the line.' },
  { code: 'RC8003', severity: 'info', title: 'medium-risk change',
    explanation: 'A change that the risk table classes as medium risk: a test, build, lint or format command, the package manager or a runtime version, or a removed rule. Every agent working under the changed file follows the new text from the next session on.' },
  { code: 'RC8004', severity: 'warning', title: 'approvals not usable',
    hint: 'the workflow must write the approvals file for the exact head commit (README: Reviewing changes)',
    explanation: 'The approvals contract (--approvals FILE or RULEC_APPROVALS) could not be used: the file is missing or unreadable, is not the documented JSON, or names another head commit than the one checked. rulec check then counts no approvals, so a change that needs them fails.' },
];
