/** `rulec diff` and `rulec check` as text: headline rows, then each section a reviewer reads. */
import type { BundleDiff, DiffSide } from '../../diff/bundle-diff.js';
import type { CheckReport } from '../../diff/check-model.js';
import type { PathGroup, TopicWinner } from '../../diff/path-group.js';
import type { RuleChange, RuleSite } from '../../diff/rule-change.js';
import { num } from '../num.js';
import { formatDiagnostics, summaryLine, type SourceLines } from '../text.js';
import { checkRows, diffRows, type Row } from './diff-facts.js';
import { plural, signed } from './facts.js';

const MAX_RULES = 50;
const MAX_LINES = 12;
const MAX_GROUPS = 10;

function rows(list: readonly Row[]): string[] {
  const width = Math.max(...list.map((r) => r.label.length));
  return list.map((r) => `  ${r.label.padEnd(width)}  ${r.value}`);
}

function section(title: string, body: readonly string[]): string[] {
  return body.length === 0 ? [] : ['', `${title}:`, ...body];
}

const side = (w: TopicWinner | null): string => (w ? `\`${w.value}\`${w.decided ? '' : ' (undecided)'}` : '(none)');
const where = (w: TopicWinner | null): string => (w ? `, decided by ${w.source}:${w.line}` : '');

const at = (x: RuleSite): string => `${x.source}:${x.line}${x.enforced ? ', enforced' : ''}`;

function ruleLines(r: RuleChange): string[] {
  // A moved rule says where it came from: the move is the change.
  const site = r.kind === 'moved' && r.old && r.new ? `${at(r.old)} → ${at(r.new)}` : (r.new ?? r.old) ? at((r.new ?? r.old) as RuleSite) : '';
  const head = `  ${r.kind.padEnd(8)} ${r.rule}${site ? ` (${site})` : ''}${r.effects.length > 0 ? ` [${r.effects.join(', ')}]` : ''}`;
  const changed = [...r.removed_lines.map((l) => `      - ${l}`), ...r.added_lines.map((l) => `      + ${l}`)];
  const shown = changed.slice(0, MAX_LINES);
  if (changed.length > shown.length) shown.push(`      … ${changed.length - shown.length} more lines`);
  return [head, ...shown];
}

/** Per group of units that share an old and a new variant: size, tokens, and how much of its cached prefix survives. */
function groupLines(d: BundleDiff): string[] {
  if (d.groups.length === 0) return [];
  const row = (g: PathGroup): string => {
    const n = g.paths?.count ?? g.dirs.count;
    const c = g.cache;
    const cache = c.whole_prefix ? `${num(c.kept_tokens)}/${num(c.old_tokens)} cached, only appended` : `${num(c.kept_tokens)}/${num(c.old_tokens)} cached, first change ${c.first_change ?? '-'}`;
    const example = (g.paths?.examples ?? g.dirs.examples)[0];
    return `  ${num(n).padStart(6)}  ${`${num(g.tokens.old)} → ${num(g.tokens.new)} (${signed(g.tokens.new - g.tokens.old)})`.padEnd(22)} ${cache}${example ? `; e.g. ${example}` : ''}`;
  };
  const out = d.groups.slice(0, MAX_GROUPS).map(row);
  if (d.groups.length > MAX_GROUPS) out.push(`  … ${d.groups.length - MAX_GROUPS} more groups`);
  return out;
}

function sideLine(s: DiffSide): string {
  return `${s.bundle_id} (${s.label}${s.commit ? ` at ${s.commit.slice(0, 12)}` : ''}; ${plural(s.diagnostics.errors, 'error')}, ${plural(s.diagnostics.warnings, 'warning')})`;
}

export function diffSections(d: BundleDiff): string[] {
  const out: string[] = [];
  out.push(...section('Why this bump', d.semver.reasons.map((r) => `  ${r.bump.padEnd(5)}  ${r.why}`)));
  out.push(...section('Topic winners', d.winners.map((w) =>
    `  ${w.topic}: ${side(w.old)} → ${side(w.new)}${where(w.new ?? w.old)} — ${num(w.units.count)} ${d.summary.unit}${w.units.examples.length > 0 ? ` (${w.units.examples.join(', ')})` : ''}`)));
  const rules = d.rules.slice(0, MAX_RULES).flatMap(ruleLines);
  if (d.rules.length > MAX_RULES) rules.push(`  … ${d.rules.length - MAX_RULES} more rule changes (use --format json)`);
  out.push(...section('Rules', rules));
  out.push(...section('Sources', d.sources.map((s) => `  ${s.change.padEnd(8)} ${s.id}${s.fields.length > 0 ? ` (${s.fields.join(', ')})` : ''}`)));
  out.push(...section('Conflicts introduced', d.conflicts.introduced.map((e) => `  ${e.severity.padEnd(7)} ${e.kind} on ${e.topic} [${e.id}]: ${e.ruling}`)));
  out.push(...section('Conflicts resolved', d.conflicts.resolved.map((e) => `  ${e.kind} on ${e.topic} [${e.id}]`)));
  out.push(...section('Agents (over affected units)', d.tokens.profiles.map((p) =>
    `  ${p.profile.padEnd(12)} ${num(p.old_tokens)} → ${num(p.new_tokens)} tokens (${signed(p.new_tokens - p.old_tokens)}); fits its budget in ${num(p.old_fits)} → ${num(p.new_fits)}`)));
  out.push(...section('Agent budgets', d.budgets.map((b) =>
    `  ${b.profile}: ${b.file} ${b.change === 'now-dropped' ? 'is now cut or dropped' : 'is no longer cut'} in ${num(b.units.count)} ${d.summary.unit}`)));
  out.push(...section('Top movers', d.tokens.top_movers.map((m) =>
    `  ${signed(m.delta).padStart(8)}  ${m.source} (${m.old_tokens ?? 0} → ${m.new_tokens ?? 0} tokens, ${num(m.units)} ${d.summary.unit})`)));
  const dirs = d.affected.directories.map((a) => `  ${a.dir.padEnd(24)} ${num(a.count)}${a.examples.length > 0 ? `  (${a.examples.join(', ')})` : ''}`);
  if (d.affected.omitted > 0) dirs.push(`  … ${d.affected.omitted} more directories`);
  out.push(...section(`Affected ${d.affected.unit} by directory`, dirs));
  out.push(...section(`${d.summary.unit === 'paths' ? 'Path' : 'Directory'} groups (${d.summary.unit}, tokens, prompt cache)`, groupLines(d)));
  out.push(...section('Attachments', d.attachments.map((a) =>
    `  ${a.change.padEnd(8)} ${a.source}${a.new ? ` (${a.new.globs.join(', ')}; ${num(a.new.tokens)} tokens)` : ''}`)));
  out.push(...section('Notes', d.notes.map((n) => `  ${n}`)));
  return out;
}

export function textOfDiff(d: BundleDiff): string {
  const head = [`rulec diff ${d.old.label} → ${d.new.label}`, `  old  ${sideLine(d.old)}`, `  new  ${sideLine(d.new)}`];
  if (d.identical) return `${head.join('\n')}\n  identical: both are bundle ${d.new.bundle_id}; no path's context changed\n`;
  return `${[...head, ...rows(diffRows(d)), ...diffSections(d)].join('\n')}\n`;
}

export function textOfCheck(c: CheckReport, lines: SourceLines): string {
  const out = [`rulec check ${c.base.ref} (${c.base.commit.slice(0, 12)}) → ${c.head.ref} (${c.head.commit.slice(0, 12)})`];
  // The fast path says it in one line: what was compared, and how the base was chosen.
  if (c.skipped) return `${out[0]}: no rule file changed, nothing to check (base: ${c.base.how})\n`;
  out.push(...rows([...checkRows(c), ...(c.diff && !c.diff.identical ? diffRows(c.diff) : [])]));
  out.push(...section('Fails because', c.reasons.map((r) => `  - ${r}`)));
  if (c.risk) {
    out.push(...section('Risk', c.risk.findings.map((f) =>
      `  ${f.level.padEnd(6)} ${f.check}: ${f.why}${f.source ? ` (${f.source}${f.line !== null ? `:${f.line}` : ''})` : ''}${f.excerpt ? ` — ${f.excerpt}` : ''}`)));
    out.push(...section('Approvals', c.risk.requirements.map((q) =>
      `  ${q.satisfied ? 'ok     ' : 'MISSING'} ${q.level}: ${q.needed} of ${q.owners.length > 0 ? q.owners.join(', ') : 'any reviewer'}; approved by ${q.approved_by.join(', ') || 'nobody'}`)));
  }
  out.push(...section('Changed rule files', c.changed.map((p) => `  ${p}`)));
  if (c.diff && !c.diff.identical) out.push(...diffSections(c.diff));
  const diags = formatDiagnostics(c.diagnostics, lines);
  return `${out.join('\n')}\n${diags ? `\n${diags}` : ''}\n${summaryLine(c.diagnostics)}\n`;
}
