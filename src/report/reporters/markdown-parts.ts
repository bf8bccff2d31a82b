/** Pieces every Markdown comment shares: the marker and verdict line, the diagnostics and conflicts sections. */
import type { ConflictEvent } from '../../conflicts/events.js';
import { countBySeverity, type Diagnostic } from '../../diagnostics/diagnostic.js';
import { countsLine, type Verdict } from './facts.js';
import { details, mdCode, mdTable, mdText, type Section } from './markdown-util.js';

/** The first line of every comment rulec writes; a workflow finds its comment by it. */
export const COMMENT_MARKER = '<!-- rulec-report -->';
const ICON = { pass: '✅', fail: '❌', info: 'ℹ️' } as const;

export function headline(v: Verdict): string {
  return `${COMMENT_MARKER}\n### ${ICON[v.tone]} rulec: ${mdText(v.title)}`;
}

const where = (d: Diagnostic): string => (d.file === '' ? '*(no file)*' : mdCode(`${d.file}:${d.range.start.line}:${d.range.start.col}`, true));

export function diagnosticsSection(list: readonly Diagnostic[]): Section {
  const items = list.map((d) => `| ${d.severity} | ${d.code} | ${where(d)} | ${mdText(d.message)}${d.hint ? `<br>hint: ${mdText(d.hint)}` : ''} |`);
  const c = countBySeverity(list);
  return {
    title: 'Diagnostics', items,
    render: (shown, omitted) => details(`Diagnostics: ${countsLine(list)}`,
      `${mdTable(['severity', 'code', 'where', 'message'], [])}\n${shown.join('\n')}${omitted > 0 ? `\n\n…and ${omitted} more.` : ''}`, c.error > 0),
  };
}

const sideCell = (e: ConflictEvent): string => e.sides.map((s) =>
  `${s.source === e.adopted ? '**adopted** ' : ''}${mdCode(`${s.source}:${s.line}`, true)} ${mdCode(s.value, true)}${s.excerpt ? ` — ${mdText(s.excerpt)}` : ''}`).join('<br>');

export function conflictsSection(title: string, events: readonly ConflictEvent[]): Section {
  const items = events.map((e) => `| ${e.severity} | ${e.kind} | ${mdCode(e.topic, true)} | ${sideCell(e)} | ${mdText(e.ruling)} |`);
  return {
    title, items,
    render: (shown, omitted) => details(`${title} (${events.length})`,
      `${mdTable(['severity', 'kind', 'topic', 'sides', 'ruling'], [])}\n${shown.join('\n')}${omitted > 0 ? `\n\n…and ${omitted} more.` : ''}`),
  };
}

