/**
 * assessRisk(): the risk of a change and the approvals it needs (pure).
 *
 * 1. Each rule change of the diff is tried against every row of the risk
 *    table (risk-table.ts), with the levels the policy sets (`risk.checks`);
 *    each matching row is a finding at the line it matched in the new file
 *    (an added line or topic finding), else at the rule's file and line. A rule
 *    change no row matches is a low `wording` finding. A changed policy file
 *    is a `policy-changed` finding.
 * 2. Each finding's owners come from its class's CODEOWNERS-style lines
 *    (owners.ts) — in the policy of the BASE commit, so a change cannot name
 *    its own approvers.
 * 3. A class with `approvals: N > 0` needs, for each distinct owner set among
 *    its findings, N approvers that qualify; the approvals come from the
 *    approvals contract (approvals.ts).
 */
import type { RiskLevelName, RiskPolicy } from '../config/policy.js';
import { compareCodeUnits } from '../util/compare.js';
import { ownersFor, parseOwnerLines, qualifyingApprovers, type OwnerLine } from './owners.js';
import { matchRow, POLICY_ROW, RISK_TABLE, WORDING_ROW, type RiskRow, type RowHit } from './risk-table.js';
import type { BundleDiff } from './bundle-diff.js';
import type { ApprovalRequirement, ApprovalsInput, RiskAssessment, RiskFinding, RiskLevel } from './check-model.js';
import type { RuleChange } from './rule-change.js';

export interface RiskInput {
  diff: BundleDiff;
  /** The policy file's path when it differs between base and head, else null. */
  policyChanged: string | null;
  /** `risk` of the base commit's policy. */
  policy: RiskPolicy | undefined;
  approvals: ApprovalsInput;
}

const RANK: Record<RiskLevel, number> = { high: 0, medium: 1, low: 2 };
const LEVELS: readonly RiskLevel[] = ['high', 'medium', 'low'];

export function assessRisk(input: RiskInput): RiskAssessment {
  const rows = levelled(input.policy);
  const owners = new Map<RiskLevel, OwnerLine[]>(LEVELS.map((l) => [l, parseOwnerLines(input.policy?.classes?.[l]?.owners ?? [])]));
  const findings: RiskFinding[] = [];
  const add = (row: RiskRow, source: string, r: RuleChange | null, hit: RowHit | null): void => {
    const site = r ? (r.new ?? r.old) : null;
    findings.push({ level: row.level, check: row.id, why: row.why, source, rule: r?.rule ?? null, line: hit?.line ?? site?.line ?? null,
      excerpt: hit === null || hit.excerpt === null ? null : clip(hit.excerpt), owners: ownersFor(owners.get(row.level) ?? [], source) });
  };
  for (const r of input.diff.rules) {
    const source = (r.new ?? r.old)?.source ?? '';
    let matched = false;
    for (const row of rows.table) {
      const hit = matchRow(row, r);
      if (hit === undefined) continue;
      matched = true;
      add(row, source, r, hit);
    }
    if (!matched && rows.wording) add(rows.wording, source, r, null);
  }
  if (input.policyChanged !== null && rows.policy) add(rows.policy, input.policyChanged, null, null);
  findings.sort((a, b) => RANK[a.level] - RANK[b.level] || compareCodeUnits(a.source, b.source) || (a.line ?? 0) - (b.line ?? 0)
    || compareCodeUnits(a.check, b.check) || compareCodeUnits(a.rule ?? '', b.rule ?? ''));
  const requirements = requirementsOf(findings, input.policy, input.approvals);
  return {
    level: findings[0]?.level ?? 'none',
    findings,
    requirements,
    approved: requirements.every((q) => q.satisfied),
  };
}

/** The table with each row at the level the policy gives it; rows turned off are left out. */
function levelled(policy: RiskPolicy | undefined): { table: RiskRow[]; wording: RiskRow | null; policy: RiskRow | null } {
  const checks = policy?.checks ?? {};
  const set = (row: RiskRow): RiskRow | null => {
    const level = Object.prototype.hasOwnProperty.call(checks, row.id) ? checks[row.id] : undefined;
    if (level === 'off') return null;
    return level === undefined ? row : { ...row, level };
  };
  return { table: RISK_TABLE.map(set).filter((r): r is RiskRow => r !== null), wording: set(WORDING_ROW), policy: set(POLICY_ROW) };
}

function requirementsOf(findings: readonly RiskFinding[], policy: RiskPolicy | undefined, approvals: ApprovalsInput): ApprovalRequirement[] {
  const by = new Map<string, ApprovalRequirement>();
  for (const f of findings) {
    const needed = policy?.classes?.[f.level as RiskLevelName]?.approvals ?? 0;
    if (needed <= 0) continue;
    const key = `${f.level}\u0000${f.owners.join(' ')}`;
    let q = by.get(key);
    if (!q) {
      const approvedBy = qualifyingApprovers(f.owners, approvals);
      by.set(key, (q = { level: f.level, sources: [], owners: [...f.owners], needed, approved_by: approvedBy, satisfied: approvedBy.length >= needed }));
    }
    if (!q.sources.includes(f.source)) q.sources.push(f.source);
  }
  return [...by.values()].map((q) => ({ ...q, sources: q.sources.sort(compareCodeUnits) }))
    .sort((a, b) => RANK[a.level] - RANK[b.level] || compareCodeUnits(a.owners.join(' '), b.owners.join(' ')));
}

function clip(s: string): string {
  return s.length > 160 ? `${s.slice(0, 157)}...` : s;
}
