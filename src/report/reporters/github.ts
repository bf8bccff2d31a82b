/**
 * The GitHub Actions reporter: one workflow command per diagnostic
 * (`::error file=…,line=…,col=…,endLine=…,endColumn=…,title=…::message`), so
 * each shows as an annotation on the pull request's diff, then one summary
 * line. Escaping follows @actions/core (toCommandValue / escapeData /
 * escapeProperty): data escapes %, CR and LF; properties also `:` and `,`.
 * A newline in a message therefore never starts a second command.
 */
import { findCatalogueEntry } from '../../diagnostics/catalogue.js';
import type { Diagnostic, Severity } from '../../diagnostics/diagnostic.js';
import { summaryLine } from '../text.js';
import { diagnosticsOf, verdictOf } from './facts.js';
import type { Report, Reporter } from './types.js';

const COMMAND: Record<Severity, string> = { error: 'error', warning: 'warning', info: 'notice' };

export function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

export function workflowCommand(command: string, properties: [string, string | number][], message: string): string {
  const props = properties.map(([k, v]) => `${k}=${escapeProperty(String(v))}`).join(',');
  return `::${command}${props ? ` ${props}` : ''}::${escapeData(message)}`;
}

/** Files outside the repository (managed:, user:) cannot be annotated: their id goes into the message. */
const inRepo = (file: string): boolean => file !== '' && !/^(managed|user):/.test(file);

export function annotation(d: Diagnostic): string {
  const title = `${d.code} ${findCatalogueEntry(d.code)?.title ?? ''}`.trim();
  const props: [string, string | number][] = [];
  if (inRepo(d.file)) {
    props.push(['file', d.file], ['line', d.range.start.line], ['col', d.range.start.col]);
    if (d.range.end.line > d.range.start.line) props.push(['endLine', d.range.end.line]);
    else if (d.range.end.col > d.range.start.col) props.push(['endColumn', d.range.end.col]);
  }
  props.push(['title', title]);
  const where = d.file !== '' && !inRepo(d.file) ? `${d.file}:${d.range.start.line}:${d.range.start.col}: ` : '';
  const body = [`${where}${d.message}`];
  if (d.hint) body.push(`hint: ${d.hint}`);
  for (const r of d.related ?? []) body.push(`related: ${r.file}:${r.range.start.line}:${r.range.start.col} - ${r.message}`);
  return workflowCommand(COMMAND[d.severity], props, body.join('\n'));
}

function checkCommands(report: Report): string[] {
  if (report.command !== 'check') return [];
  const out: string[] = [];
  for (const f of report.check.risk?.findings ?? []) {
    if (f.level === 'low') continue;
    const props: [string, string | number][] = [];
    if (inRepo(f.source)) props.push(['file', f.source], ...(f.line !== null ? [['line', f.line] as [string, number]] : []));
    props.push(['title', `rulec risk: ${f.level} (${f.check})`]);
    const owners = f.owners.length > 0 ? `\napproval needed from: ${f.owners.join(', ')}` : '';
    out.push(workflowCommand(f.level === 'high' ? 'warning' : 'notice', props, `${f.why}${f.excerpt ? `\n${f.excerpt}` : ''}${owners}`));
  }
  for (const reason of report.check.reasons) out.push(workflowCommand('error', [['title', 'rulec check failed']], reason));
  return out;
}

export const githubReporter: Reporter = {
  format: 'github',
  description: 'for GitHub Actions: workflow commands that annotate the pull request',
  render(report: Report): string {
    const diagnostics = diagnosticsOf(report);
    const lines = [...diagnostics.map(annotation), ...checkCommands(report)];
    // Plain text, but escaped like data: a newline in a reason must not start a line the runner reads as a command.
    lines.push(escapeData(`rulec ${report.command}: ${verdictOf(report).title}. ${summaryLine(diagnostics)}`));
    return `${lines.join('\n')}\n`;
  },
};
