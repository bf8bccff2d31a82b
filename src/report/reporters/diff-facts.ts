/**
 * The headline figures of a diff, as label/value rows that every format shows
 * in the same order (text, markdown, html). Values hold numbers and fixed
 * words only, never text from a file, so a format may print them as they are.
 */
import type { BundleDiff } from '../../diff/bundle-diff.js';
import type { CheckReport } from '../../diff/check-model.js';
import { num } from '../num.js';
import { percent, plural, signed } from './facts.js';

export interface Row {
  label: string;
  value: string;
}

/** Share of the old prefix tokens a prompt cache still serves, over changed units. */
export function cacheShare(d: BundleDiff): string {
  return percent(d.cache.tokens_kept, d.cache.tokens_kept + d.cache.tokens_invalidated);
}

export function cacheLine(d: BundleDiff): string {
  const c = d.cache;
  return `${cacheShare(d)} of cached prefix tokens still hit (${num(c.tokens_kept)} kept, ${num(c.tokens_invalidated)} invalidated); ` +
    `${num(c.prefix_lost)} ${c.unit} lose their cached prefix, ${num(c.prefix_kept)} only append, ${num(c.unchanged)} unchanged`;
}

export function diffRows(d: BundleDiff): Row[] {
  const s = d.summary;
  const t = d.tokens;
  return [
    { label: 'bump', value: `${d.semver.bump}${d.semver.reasons.length > 0 ? ` (${plural(d.semver.reasons.length, 'reason')})` : ''}` },
    { label: 'sources', value: `${s.sources.added} added, ${s.sources.removed} removed, ${s.sources.changed} changed` },
    { label: 'rules', value: `${s.rules.added} added, ${s.rules.removed} removed, ${s.rules.changed} changed, ${s.rules.moved} moved` },
    { label: 'affected', value: `${num(s.affected)} of ${num(s.total)} ${s.unit} (${percent(s.affected, s.total)}) in ${plural(s.groups, 'group')}` },
    { label: 'tokens', value: `${num(t.old_total)} → ${num(t.new_total)} (${signed(t.new_total - t.old_total)}) over affected ${s.unit}` },
    { label: 'prompt cache', value: cacheLine(d) },
    { label: 'conflicts', value: `${s.conflicts.introduced} introduced (${plural(s.conflicts.introduced_errors, 'error')}), ${s.conflicts.resolved} resolved` },
    { label: 'winners', value: `${plural(s.winners_changed, 'topic winner')} changed` },
    { label: 'agent budgets', value: `${plural(s.newly_dropped, 'file')} newly cut or dropped` },
  ];
}

export function checkRows(c: CheckReport): Row[] {
  const rows: Row[] = [
    { label: 'verdict', value: c.verdict },
    { label: 'changed', value: plural(c.changed.length, 'rule file') },
  ];
  if (c.risk) {
    const missing = c.risk.requirements.filter((r) => !r.satisfied).length;
    rows.push({ label: 'risk', value: `${c.risk.level} (${plural(c.risk.findings.length, 'finding')})` });
    rows.push({ label: 'approvals', value: c.risk.requirements.length === 0 ? 'none needed' : missing === 0 ? 'all given' : `${missing} of ${c.risk.requirements.length} missing` });
  }
  return rows;
}

