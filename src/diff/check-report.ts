/**
 * The report of `rulec check` (pure): the diff, the risk assessment and the
 * approvals turned into coded diagnostics and a verdict.
 *
 * - Each high finding is RC8001 (error) when its approval requirement is not
 *   met, else RC8002 (warning); each medium finding is RC8003 (info); low
 *   findings are only listed in the report.
 * - The check fails on any error diagnostic of head (its build and lint), on
 *   error-level conflict events the change introduces, and on any approval
 *   requirement not met.
 */
import { diag, sortDiagnostics, type Diagnostic } from '../diagnostics/diagnostic.js';
import type { BundleDiff } from './bundle-diff.js';
import { CHECK_SCHEMA_ID, type ApprovalsInput, type CheckRef, type CheckReport, type RiskAssessment, type RiskFinding } from './check-model.js';

export interface CheckInput {
  base: CheckRef;
  head: CheckRef;
  changed: string[];
  diff: BundleDiff;
  risk: RiskAssessment;
  approvals: ApprovalsInput;
  /** Head's build and lint diagnostics, and any about the approvals input. */
  diagnostics: Diagnostic[];
}

export function checkReport(input: CheckInput): CheckReport {
  const { diff, risk } = input;
  const riskDiagnostics = risk.findings.flatMap((f) => findingDiagnostic(f, risk));
  const diagnostics = sortDiagnostics([...input.diagnostics, ...riskDiagnostics]);
  const reasons: string[] = [];
  const errors = input.diagnostics.filter((d) => d.severity === 'error').length;
  if (errors > 0) reasons.push(`head has ${errors} error${errors === 1 ? '' : 's'} (build and lint)`);
  const newErrors = diff.conflicts.introduced.filter((e) => e.severity === 'error');
  if (newErrors.length > 0) reasons.push(`the change introduces ${newErrors.length} error-level conflict${newErrors.length === 1 ? '' : 's'}: ${newErrors.map((e) => e.id).join(', ')}`);
  for (const q of risk.requirements) {
    if (q.satisfied) continue;
    reasons.push(`${q.level}-risk change in ${q.sources.join(', ')} needs ${q.needed} approval${q.needed === 1 ? '' : 's'} from ${owners(q.owners)}; approved by ${q.approved_by.length === 0 ? 'nobody who qualifies' : q.approved_by.join(', ')}`);
  }
  return {
    schema: CHECK_SCHEMA_ID, base: input.base, head: input.head, changed: input.changed, skipped: false, diff, risk,
    approvals: input.approvals, diagnostics, verdict: reasons.length === 0 ? 'pass' : 'fail', reasons,
  };
}

/** No rule file changed between base and head: nothing was compiled. */
export function skippedReport(base: CheckRef, head: CheckRef, approvals: ApprovalsInput): CheckReport {
  return { schema: CHECK_SCHEMA_ID, base, head, changed: [], skipped: true, diff: null, risk: null, approvals, diagnostics: [], verdict: 'pass', reasons: [] };
}

function findingDiagnostic(f: RiskFinding, risk: RiskAssessment): Diagnostic[] {
  if (f.level === 'low') return [];
  const line = f.line ?? 1;
  const range = { start: { line, col: 1 }, end: { line, col: 1 } };
  const what = `${f.why} [${f.check}]${f.rule !== null ? ` in rule ${f.rule}` : ''}${f.excerpt ? `: ${f.excerpt}` : ''}`;
  if (f.level === 'medium') return [diag('RC8003', { file: f.source, range, message: what })];
  const q = risk.requirements.find((r) => r.level === f.level && r.sources.includes(f.source) && r.owners.join(' ') === f.owners.join(' '));
  if (q && !q.satisfied) {
    return [diag('RC8001', { file: f.source, range, message: `${what} — needs ${q.needed} approval${q.needed === 1 ? '' : 's'} from ${owners(q.owners)}; approved by ${q.approved_by.length === 0 ? 'nobody who qualifies' : q.approved_by.join(', ')}` })];
  }
  return [diag('RC8002', { file: f.source, range, message: q ? `${what} — approved by ${q.approved_by.join(', ')}` : what })];
}

function owners(list: readonly string[]): string {
  return list.length === 0 ? 'any reviewer' : list.join(' or ');
}
