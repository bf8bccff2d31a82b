/** The slow half of `rulec check`, loaded only when a rule file changed: compile base and head, diff, assess, report. */
import { compile } from '../../compile.js';
import type { Redactions } from '../../diagnostics/redact.js';
import { diffWithRedactions } from '../../diff/diff-bundles.js';
import { assessRisk } from '../../diff/risk.js';
import { checkReport } from '../../diff/check-report.js';
import type { ApprovalsInput, CheckRef, CheckReport } from '../../diff/check-model.js';
import { viewOfCompile } from '../../diff/view.js';
import { frameLinesOf } from '../../report/reporters/from-compile.js';
import type { FrameLines } from '../../report/reporters/types.js';
import { gitSource } from '../../source/repo-source.js';
import { canonicalJson } from '../../util/canonical-json.js';
import type { StageResult } from '../../types.js';
import { mergeRedactions } from './diff.js';

export interface CheckRun {
  repoDir: string;
  base: CheckRef;
  head: CheckRef;
  changed: string[];
  /** The approvals as read, with what was wrong with them. */
  approvals: StageResult<ApprovalsInput>;
  managedDir?: string;
  policyFile?: string;
  /** How the report names the policy file (repo-relative), when it lies in the repository. */
  policyRel?: string | null;
}

/** The report, the source lines of head for code frames, and every secret found (masked in whatever is printed). */
export async function runCheck(run: CheckRun): Promise<{ report: CheckReport; lines: FrameLines; redactions: Redactions }> {
  const common = { repoDir: run.repoDir, ...(run.managedDir ? { managedDir: run.managedDir } : {}), ...(run.policyFile ? { policyFile: run.policyFile } : {}) };
  const base = await compile({ ...common, source: await gitSource(run.repoDir, run.base.commit) });
  // The base's worker serves the head; the head's ends with its last job (compile-options.ts).
  const head = await compile({ ...common, source: await gitSource(run.repoDir, run.head.commit), keepWorker: false });
  const { diff, redactions } = diffWithRedactions(viewOfCompile(base, `git:${run.base.ref}`, 'git', run.base.commit),
    viewOfCompile(head, `git:${run.head.ref}`, 'git', run.head.commit), { layerOrder: head.policy.conflicts?.layer_order });
  // The effective policies, not the file: a change that leaves the policy equal is no policy change.
  const policyChanged = canonicalJson(base.policy) !== canonicalJson(head.policy) ? (run.policyRel ?? 'policy') : null;
  const risk = assessRisk({ diff, policyChanged, policy: base.policy.risk, approvals: run.approvals.value });
  const report = checkReport({ base: run.base, head: run.head, changed: run.changed, diff, risk, approvals: run.approvals.value,
    diagnostics: [...head.diagnostics, ...run.approvals.diagnostics] });
  return { report, lines: frameLinesOf(head, report.diagnostics), redactions: mergeRedactions([redactions, base.redactions, head.redactions]) };
}
