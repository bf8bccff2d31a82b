/** `rulec diff` and `rulec check` as a pull-request comment (see markdown.ts). */
import type { BundleDiff } from '../../diff/bundle-diff.js';
import type { CheckReport } from '../../diff/check-model.js';
import type { TopicWinner } from '../../diff/path-group.js';
import type { RuleChange } from '../../diff/rule-change.js';
import { num } from '../num.js';
import { checkRows, diffRows, type Row } from './diff-facts.js';
import { checkVerdict, diffVerdict, signed } from './facts.js';
import { conflictsSection, diagnosticsSection, headline } from './markdown-parts.js';
import { details, fitSections, mdCode, mdFence, mdTable, mdText, type Section } from './markdown-util.js';

const MAX_RULE_LINES = 20;

const table = (rows: readonly Row[]): string => mdTable(['', ''], rows.map((r) => [r.label, mdText(r.value)]));
const more = (omitted: number): string => (omitted > 0 ? `\n\n…and ${omitted} more.` : '');

function folded(title: string, header: readonly string[], items: string[], open = false): Section {
  return { title, items, render: (shown, omitted) => details(`${title} (${items.length})`, `${mdTable(header, [])}\n${shown.join('\n')}${more(omitted)}`, open) };
}

const winnerCell = (w: TopicWinner | null): string => (w ? `${mdCode(w.value, true)}${w.decided ? '' : ' *(undecided)*'}` : '—');

function ruleItem(r: RuleChange): string {
  const site = r.new ?? r.old;
  const title = `**${r.kind}** ${mdCode(r.rule)}${site ? ` (${mdCode(`${site.source}:${site.line}`)})` : ''}${r.effects.length > 0 ? ` — ${r.effects.join(', ')}` : ''}`;
  const lines = [...r.removed_lines.map((l) => `- ${l}`), ...r.added_lines.map((l) => `+ ${l}`)];
  if (lines.length === 0) return `- ${title}`;
  const shown = lines.slice(0, MAX_RULE_LINES);
  if (lines.length > shown.length) shown.push(`… ${lines.length - shown.length} more lines`);
  return `- ${title}\n\n${mdFence(shown, 'diff').split('\n').map((l) => `  ${l}`).join('\n')}\n`;
}

export function diffSectionsMd(d: BundleDiff): Section[] {
  const unit = d.summary.unit;
  const rules: Section = { title: 'Rules', items: d.rules.map(ruleItem), render: (shown, omitted) => details(`Rules changed (${d.rules.length})`, `${shown.join('\n')}${more(omitted)}`) };
  return [
    folded('Why this bump', ['bump', 'why'], d.semver.reasons.map((r) => `| ${r.bump} | ${mdText(r.why)} |`)),
    folded('Topic winners', ['topic', 'before', 'after', 'decided by', unit], d.winners.map((w) => {
      const by = w.new ?? w.old;
      return `| ${mdCode(w.topic, true)} | ${winnerCell(w.old)} | ${winnerCell(w.new)} | ${by ? mdCode(`${by.source}:${by.line}`, true) : '—'} | ${num(w.units.count)}${w.units.examples.length > 0 ? ` (${w.units.examples.map((e) => mdCode(e, true)).join(', ')})` : ''} |`;
    }), true),
    rules,
    conflictsSection('Conflicts introduced', d.conflicts.introduced),
    folded('Conflicts resolved', ['kind', 'topic', 'id'], d.conflicts.resolved.map((e) => `| ${e.kind} | ${mdCode(e.topic, true)} | ${mdCode(e.id, true)} |`)),
    folded('Tokens per agent', ['agent', 'before', 'after', 'delta', `${unit} within budget`], d.tokens.profiles.map((p) =>
      `| ${mdText(p.profile)} | ${num(p.old_tokens)} | ${num(p.new_tokens)} | ${signed(p.new_tokens - p.old_tokens)} | ${num(p.old_fits)} → ${num(p.new_fits)} |`)),
    folded('Agent budgets', ['agent', 'file', 'change', unit], d.budgets.map((b) =>
      `| ${mdText(b.profile)} | ${mdCode(b.file, true)} | ${b.change === 'now-dropped' ? '**now cut or dropped**' : 'no longer cut'} | ${num(b.units.count)} |`)),
    folded('Top token movers', ['source', 'before', 'after', 'delta', unit], d.tokens.top_movers.map((m) =>
      `| ${mdCode(m.source, true)} | ${num(m.old_tokens ?? 0)} | ${num(m.new_tokens ?? 0)} | ${signed(m.delta)} | ${num(m.units)} |`)),
    folded(`Affected ${unit} by directory`, ['directory', unit, 'examples'], [
      ...d.affected.directories.map((a) => `| ${mdCode(a.dir, true)} | ${num(a.count)} | ${a.examples.map((e) => mdCode(e, true)).join(', ')} |`),
      ...(d.affected.omitted > 0 ? [`| … | ${d.affected.omitted} more directories | |`] : []),
    ]),
    folded('Sources', ['change', 'source', 'fields'], d.sources.map((s) => `| ${s.change} | ${mdCode(s.id, true)} | ${s.fields.join(', ')} |`)),
    folded('Notes', ['note'], d.notes.map((n) => `| ${mdText(n)} |`)),
  ];
}

export function diffMarkdown(d: BundleDiff, full: string): string {
  const title = `${headline(diffVerdict(d))}\n\n${mdCode(d.old.label)} → ${mdCode(d.new.label)}`;
  if (d.identical) return `${title}\n`;
  return fitSections(`${title}\n\n${table(diffRows(d))}`, diffSectionsMd(d), full);
}

export function checkMarkdown(c: CheckReport, full: string): string {
  const v = checkVerdict(c);
  const refs = `${mdCode(c.base.ref)} (${mdCode(c.base.commit.slice(0, 12))}) → ${mdCode(c.head.ref)} (${mdCode(c.head.commit.slice(0, 12))})`;
  if (c.skipped) return `${headline(v)}\n\n${refs}\n`;
  const head = [headline(v), refs, table([...checkRows(c), ...(c.diff && !c.diff.identical ? diffRows(c.diff) : [])])];
  if (c.reasons.length > 0) head.push(`**Fails because**\n\n${c.reasons.map((r) => `- ${mdText(r)}`).join('\n')}`);
  const sections: Section[] = [];
  if (c.risk) {
    sections.push(folded('Approvals', ['', 'level', 'approvers (any of)', 'needed', 'approved by'], c.risk.requirements.map((q) =>
      `| ${q.satisfied ? '✅' : '❌'} | ${q.level} | ${q.owners.length > 0 ? q.owners.map((o) => mdCode(o, true)).join(', ') : 'any reviewer'} | ${q.needed} | ${q.approved_by.map((a) => mdCode(a, true)).join(', ') || '—'} |`), true));
    sections.push(folded('Risk findings', ['level', 'check', 'where', 'why'], c.risk.findings.map((f) =>
      `| ${f.level} | ${mdCode(f.check, true)} | ${f.source ? mdCode(`${f.source}${f.line !== null ? `:${f.line}` : ''}`, true) : 'policy'} | ${mdText(f.why)}${f.excerpt ? `<br>${mdCode(f.excerpt, true)}` : ''} |`), c.risk.level === 'high'));
  }
  sections.push(diagnosticsSection(c.diagnostics));
  if (c.diff && !c.diff.identical) sections.push(...diffSectionsMd(c.diff));
  sections.push(folded('Changed rule files', ['path'], c.changed.map((p) => `| ${mdCode(p, true)} |`)));
  return fitSections(head.join('\n\n'), sections, full);
}
