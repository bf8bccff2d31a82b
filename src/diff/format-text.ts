/**
 * A BundleDiff as text a reviewer reads in a minute (pure): the verdict and a
 * summary table first, then the details — semver reasons, rules, topic
 * winners, conflicts, per-group figures, agents, budget cuts, affected paths
 * and notes. Long lists are cut with "… and N more" (the JSON has them all).
 */
import { num } from '../report/text.js';
import type { ConflictEvent } from '../conflicts/events.js';
import type { BundleDiff, PathGroup, RuleChange, TopicWinner } from './types.js';

const MAX_RULES = 20;
const MAX_LINES = 6;
const MAX_ROWS = 10;

export function formatDiffText(d: BundleDiff): string {
  const out: string[] = [`rulec diff ${d.old.label} → ${d.new.label}`, `  old  ${side(d.old)}`, `  new  ${side(d.new)}`, ''];
  if (d.identical) {
    out.push('Verdict: identical — the two bundles hold the same rules; no path\'s context changed.');
    return `${out.join('\n')}\n`;
  }
  out.push(`Verdict: ${d.semver.bump.toUpperCase()} — ${headline(d)}`, '', ...summaryTable(d), '');
  section(out, 'Semver', d.semver.reasons.map((r) => `${r.bump.padEnd(5)}  ${r.why}`));
  section(out, 'Rules', d.rules.slice(0, MAX_RULES).flatMap(ruleLines), d.rules.length - MAX_RULES);
  section(out, 'Topic winners', d.winners.slice(0, MAX_ROWS).map((w) =>
    `${w.topic}: ${winner(w.old)} → ${winner(w.new)} at ${units(w.units.count, d.summary.unit)} (e.g. ${w.units.examples.join(', ')})`), d.winners.length - MAX_ROWS);
  section(out, 'Conflicts', [...d.conflicts.introduced.map((e) => conflict('+', e)), ...d.conflicts.resolved.map((e) => conflict('-', e))]);
  section(out, 'Path groups (old variant → new variant)', groupTable(d), d.groups.length - MAX_ROWS);
  section(out, 'Agents (summed over affected paths)', d.tokens.profiles.map((p) =>
    `${p.profile.padEnd(12)} ${delta(p.old_tokens, p.new_tokens)} tokens; fits its budget at ${num(p.old_fits)} → ${num(p.new_fits)} of ${units(d.summary.affected, d.summary.unit)}`));
  section(out, 'Budget cuts', d.budgets.map((b) =>
    `${b.profile} ${b.change === 'now-dropped' ? 'now cuts or drops' : 'no longer cuts or drops'} ${b.file} at ${units(b.units.count, d.summary.unit)} (e.g. ${b.units.examples.join(', ')})`));
  section(out, 'Top token movers', d.tokens.top_movers.map((m) =>
    `${m.source}: ${m.old_tokens === null ? 'new' : num(m.old_tokens)} → ${m.new_tokens === null ? 'gone' : num(m.new_tokens)} tokens (${signed(m.delta)}) in ${units(m.units, d.summary.unit)}`));
  section(out, `Affected ${d.affected.unit} (${num(d.affected.count)} of ${num(d.affected.total)})`, d.affected.directories.slice(0, MAX_ROWS).map((a) =>
    `${a.dir.padEnd(30)} ${num(a.count).padStart(7)}${a.examples.length > 0 ? `  ${a.examples.join(', ')}` : ''}`), d.affected.directories.length - MAX_ROWS + d.affected.omitted);
  section(out, 'Attachments', d.attachments.map((a) => `${a.change.padEnd(8)} ${a.source}${a.new ? ` (${a.new.globs.join(', ')}, ${num(a.new.tokens)} tokens)` : ''}`));
  section(out, 'Notes', d.notes);
  return `${out.join('\n').trimEnd()}\n`;
}

function side(s: BundleDiff['old']): string {
  const commit = s.commit ? ` at ${s.commit.slice(0, 12)}` : '';
  return `${s.bundle_id} (${s.label}${commit}; ${s.diagnostics.errors} errors, ${s.diagnostics.warnings} warnings)`;
}

function headline(d: BundleDiff): string {
  const r = d.summary.rules;
  const parts = [
    count(r.added, 'rule', 'added'), count(r.removed, 'rule', 'removed'), count(r.changed, 'rule', 'changed'), count(r.moved, 'rule', 'moved'),
    count(d.summary.conflicts.introduced, 'conflict', 'introduced'), count(d.summary.winners_changed, 'topic winner', 'changed'),
  ].filter((p) => p !== '');
  const cache = d.cache.prefix_lost > 0 ? `; ${units(d.cache.prefix_lost, d.cache.unit)} lose their cached prefix` : '';
  return `${parts.join(', ') || 'no rule changed'}; ${units(d.summary.affected, d.summary.unit)} of ${num(d.summary.total)} affected${cache}.`;
}

function summaryTable(d: BundleDiff): string[] {
  const s = d.summary;
  const c = d.cache;
  const largest = `${d.tokens.largest.old?.tokens ?? 0} → ${d.tokens.largest.new?.tokens ?? 0}`;
  return [
    `  rules       ${s.rules.added} added, ${s.rules.removed} removed, ${s.rules.changed} changed, ${s.rules.moved} moved`,
    `  sources     ${s.sources.added} added, ${s.sources.removed} removed, ${s.sources.changed} changed`,
    `  ${s.unit.padEnd(11)} ${num(s.affected)} of ${num(s.total)} affected, in ${num(s.groups)} group${s.groups === 1 ? '' : 's'}`,
    `  conflicts   ${s.conflicts.introduced} introduced (${s.conflicts.introduced_errors} errors), ${s.conflicts.resolved} resolved`,
    `  tokens      ${delta(d.tokens.old_total, d.tokens.new_total)} summed over affected ${s.unit}; largest variant ${largest}`,
    `  cache       ${num(c.unchanged)} unchanged, ${num(c.prefix_kept)} keep their whole prefix, ${num(c.prefix_lost)} lose part; ${num(c.tokens_kept)} tokens still cached, ${num(c.tokens_invalidated)} invalidated`,
    `  budgets     ${s.newly_dropped === 0 ? 'no agent newly cuts or drops a file' : `${s.newly_dropped} file${s.newly_dropped === 1 ? '' : 's'} newly cut or dropped by an agent's budget`}`,
  ];
}

function ruleLines(r: RuleChange): string[] {
  const mark = { added: '+', removed: '-', changed: '~', moved: '>' }[r.kind];
  const site = r.new ?? r.old;
  const where = r.kind === 'moved' && r.old && r.new ? `${r.old.source}#${r.old.rule} → ${r.new.source}#${r.new.rule}` : `${site?.source}#${r.rule}`;
  const facts = site ? ` (line ${site.line}, ${site.layer}${site.enforced ? ', enforced' : ''}, scope ${site.scope})` : '';
  const out = [`${mark} ${r.kind} ${where}${facts}${r.effects.length > 0 ? `: ${r.effects.join(', ')}` : ''}`];
  const lines = [...r.removed_lines.map((l) => `    - ${clip(l)}`), ...r.added_lines.map((l) => `    + ${clip(l)}`)];
  out.push(...lines.slice(0, MAX_LINES));
  if (lines.length > MAX_LINES) out.push(`    … and ${lines.length - MAX_LINES} more lines`);
  return out;
}

function winner(w: TopicWinner | null): string {
  if (!w) return '(nothing)';
  return `${w.value} (${w.decided ? 'decided by' : 'undecided, first'} ${w.source}:${w.line})`;
}

function conflict(mark: string, e: ConflictEvent): string {
  return `${mark} ${e.severity} ${e.kind} on ${e.topic} [${e.id}]: ${e.ruling}`;
}

function groupTable(d: BundleDiff): string[] {
  if (d.groups.length === 0) return [];
  const head = `${d.summary.unit.padEnd(8)} ${'tokens'.padEnd(22)} ${'cached prefix'.padEnd(18)} ${'first change'.padEnd(28)} example`;
  return [head, ...d.groups.slice(0, MAX_ROWS).map((g: PathGroup) => {
    const n = g.paths?.count ?? g.dirs.count;
    const kept = `${num(g.cache.kept_tokens)}/${num(g.cache.old_tokens)}`;
    const example = (g.paths?.examples ?? g.dirs.examples)[0] ?? '';
    const changes = [...g.sources.added.map((s) => `+${s.id}`), ...g.sources.removed.map((s) => `-${s.id}`)].join(' ');
    return `${num(n).padEnd(8)} ${delta(g.tokens.old, g.tokens.new).padEnd(22)} ${kept.padEnd(18)} ${(g.cache.first_change ?? '-').padEnd(28)} ${example}${changes ? `  ${changes}` : ''}`;
  })];
}

function section(out: string[], title: string, lines: readonly string[], more = 0): void {
  if (lines.length === 0) return;
  out.push(title, ...lines.map((l) => (l.startsWith('    ') ? l : `  ${l}`)));
  if (more > 0) out.push(`  … and ${num(more)} more`);
  out.push('');
}

function count(n: number, what: string, verb: string): string {
  return n === 0 ? '' : `${num(n)} ${what}${n === 1 ? '' : 's'} ${verb}`;
}

function units(n: number, unit: string): string {
  return `${num(n)} ${n === 1 ? unit.replace(/ies$/, 'y').replace(/s$/, '') : unit}`;
}

function delta(a: number, b: number): string {
  return `${num(a)} → ${num(b)} (${signed(b - a)})`;
}

function signed(n: number): string {
  return n > 0 ? `+${num(n)}` : n < 0 ? `-${num(-n)}` : '±0';
}

function clip(s: string): string {
  return s.length > 120 ? `${s.slice(0, 117)}...` : s;
}
