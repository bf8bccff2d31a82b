/**
 * The proposed semver bump of a bundle change, with one reason per change
 * (pure): major when a rule is removed, tightened or loosened, a prescribed
 * value changes, a scope narrows, or an enforced rule changes; minor when
 * rules are added or a scope widens; patch for wording only and for changes
 * outside the rules (policy, compiler, tokenizer); none when identical.
 */
import type { ManifestV1 } from '../bundle/model.js';
import { compareCodeUnits } from '../util/compare.js';
import { bumpOf } from './rule-effects.js';
import type { Bump, SemverProposal, SemverReason } from './bundle-diff.js';
import type { RuleChange, SourceChange } from './rule-change.js';

const ORDER: Record<Bump, number> = { major: 0, minor: 1, patch: 2, none: 3 };

export function proposeSemver(om: ManifestV1, nm: ManifestV1, sources: readonly SourceChange[], rules: readonly RuleChange[]): SemverProposal {
  if (om.bundle_id === nm.bundle_id) return { bump: 'none', reasons: [] };
  const reasons: SemverReason[] = rules.map(ruleReason);
  const withRules = new Set(rules.flatMap((r) => [r.old?.source, r.new?.source]).filter((s): s is string => s !== undefined));
  for (const s of sources) {
    if (withRules.has(s.id)) continue;
    const fields = s.fields.length > 0 ? ` (${s.fields.join(', ')})` : '';
    if (s.change === 'added') reasons.push(reason('minor', `source added: ${s.id}`, s.id));
    else if (s.change === 'removed') reasons.push(reason('major', `source removed: ${s.id}`, s.id));
    else reasons.push(reason('patch', `source changed without a rule change: ${s.id}${fields}`, s.id));
  }
  for (const [what, a, b] of [['policy', om.policy.digest, nm.policy.digest], ['compiler', om.compiler.version, nm.compiler.version], ['tokenizer', om.tokenizer, nm.tokenizer]] as const) {
    if (a !== b) reasons.push(reason('patch', `${what} changed: ${a} → ${b}`, null));
  }
  if (reasons.length === 0) reasons.push(reason('patch', 'the bundle changed outside the rules (conflict rulings, agent profiles or budgets)', null));
  reasons.sort((a, b) => ORDER[a.bump] - ORDER[b.bump] || compareCodeUnits(a.source ?? '', b.source ?? '') || compareCodeUnits(a.rule ?? '', b.rule ?? '')
    || compareCodeUnits(a.why, b.why));
  return { bump: (reasons[0] as SemverReason).bump, reasons };
}

function ruleReason(r: RuleChange): SemverReason {
  const at = (s: NonNullable<RuleChange['old']>): string => `${s.source}#${s.rule}`;
  const source = (r.new ?? r.old)?.source ?? null;
  if (r.kind === 'removed') return reason('major', `rule removed: ${at(r.old!)}`, source, r.rule);
  if (r.kind === 'added') return reason('minor', `rule added: ${at(r.new!)}`, source, r.rule);
  const where = r.kind === 'moved' ? `${at(r.old!)} → ${at(r.new!)}` : at(r.new!);
  const effects = r.effects.length > 0 ? ` (${r.effects.join(', ')})` : '';
  if (r.old?.enforced || r.new?.enforced) return reason('major', `enforced rule ${r.kind}: ${where}${effects}`, source, r.rule);
  return reason(bumpOf(r.effects), `rule ${r.kind}: ${where}${effects}`, source, r.rule);
}

function reason(bump: Exclude<Bump, 'none'>, why: string, source: string | null, rule: string | null = null): SemverReason {
  return { bump, why, source, rule };
}
