/** The slow half of `rulec check`, loaded only when a rule file changed: compile base and head, diff, assess, report. */
import { compile } from '../../compile.js';
import { diffBundles } from '../../diff/diff-bundles.js';
import { assessRisk } from '../../diff/risk.js';
import { checkReport } from '../../diff/check-report.js';
import { formatCheckText } from '../../diff/format-check-text.js';
import type { CheckRef, CheckReport } from '../../diff/types.js';
import { viewOfCompile } from '../../diff/view.js';
import { REPO_POLICY_PATH } from '../../config/repo-policy-path.js';
import { gitSource } from '../../source/repo-source.js';
import { canonicalJson } from '../../util/canonical-json.js';
import type { SourceLines } from '../../report/text.js';
import type { Approvals } from './check.js';
import { linesOf } from './shared.js';

export interface CheckRun {
  repoDir: string;
  base: CheckRef;
  head: CheckRef;
  changed: string[];
  approvals: Approvals;
  managedDir?: string;
}

/** The report, and the source lines of head for code frames. */
export async function runCheck(run: CheckRun): Promise<{ report: CheckReport; lines: SourceLines }> {
  const common = { repoDir: run.repoDir, ...(run.managedDir ? { managedDir: run.managedDir } : {}) };
  const base = await compile({ ...common, source: await gitSource(run.repoDir, run.base.commit) });
  const head = await compile({ ...common, source: await gitSource(run.repoDir, run.head.commit) });
  const diff = diffBundles(viewOfCompile(base, `git:${run.base.ref}`, 'git', run.base.commit), viewOfCompile(head, `git:${run.head.ref}`, 'git', run.head.commit),
    { layerOrder: head.policy.conflicts?.layer_order });
  // The effective policies, not the file: a change that leaves the policy equal is no policy change.
  const policyChanged = canonicalJson(base.policy) !== canonicalJson(head.policy) ? REPO_POLICY_PATH : null;
  const risk = assessRisk({ diff, policyChanged, policy: base.policy.risk, approvals: run.approvals.value });
  const report = checkReport({ base: run.base, head: run.head, changed: run.changed, diff, risk, approvals: run.approvals.value,
    diagnostics: [...head.diagnostics, ...run.approvals.diagnostics] });
  return { report, lines: linesOf(head) };
}

export function checkText(report: CheckReport, lines?: SourceLines): string {
  return formatCheckText(report, lines);
}
