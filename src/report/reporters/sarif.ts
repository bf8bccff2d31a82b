/**
 * The SARIF 2.1.0 reporter, for GitHub code scanning and other SARIF viewers.
 *
 * 1. Rules: one reportingDescriptor per diagnostic code the report uses, from
 *    the code catalogue (title, explanation, hint, default level), by code.
 * 2. Results: one per diagnostic, in the report's order. Repository files are
 *    `%SRCROOT%`-relative URIs; managed and user files have their own base ids
 *    (RULEC_MANAGED, RULEC_USER). GitHub refuses a whole upload when one result
 *    has no location, so a finding about no single file (policy overrides,
 *    profiles, local files left out) sits at the policy file when the
 *    repository has one, and is otherwise a tool-configuration notification
 *    of the run's invocation instead of a result.
 * 3. Fingerprint: `rulec/v1` = sha256 of (code, file, the flagged line with
 *    whitespace collapsed, or the message when the line is unknown) plus the
 *    occurrence number of that key, so an alert keeps its identity when lines
 *    above it move, and two equal findings in one file stay distinct.
 */
import { findCatalogueEntry } from '../../diagnostics/catalogue.js';
import type { Diagnostic, RelatedLocation, Severity } from '../../diagnostics/diagnostic.js';
import { canonicalJson } from '../../util/canonical-json.js';
import { sha256Hex } from '../../util/hash.js';
import { diagnosticsOf, reportLinesOf } from './facts.js';
import { jsonText } from '../escape.js';
import type { FrameLines, Report, Reporter } from './types.js';

export const SARIF_SCHEMA = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';
const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { error: 'error', warning: 'warning', info: 'note' };
/** GitHub ranks security alerts by this number (0.1–10); RC6xxx are the security lint codes. */
const SECURITY_SEVERITY: Record<Severity, string> = { error: '8.0', warning: '5.0', info: '2.0' };

function artifactLocation(file: string): { uri: string; uriBaseId: string } {
  const m = /^(managed|user):(.*)$/.exec(file);
  const rel = m ? (m[2] as string) : file;
  const base = m ? (m[1] === 'managed' ? 'RULEC_MANAGED' : 'RULEC_USER') : '%SRCROOT%';
  return { uri: rel.split('/').map(encodeURIComponent).join('/'), uriBaseId: base };
}

function region(d: { range: Diagnostic['range'] }): Record<string, number> {
  const { start, end } = d.range;
  const r: Record<string, number> = { startLine: start.line, startColumn: start.col };
  if (end.line > start.line || (end.line === start.line && end.col > start.col)) Object.assign(r, { endLine: end.line, endColumn: end.col });
  return r;
}

function physical(file: string, d: { range: Diagnostic['range'] }): Record<string, unknown> {
  return { physicalLocation: { artifactLocation: artifactLocation(file), region: region(d) } };
}

function rule(code: string): Record<string, unknown> {
  const e = findCatalogueEntry(code);
  const title = e?.title ?? code;
  const text = e ? `${e.explanation}${e.hint ? `\n\nHint: ${e.hint}` : ''}` : title;
  const properties: Record<string, unknown> = { tags: code.startsWith('RC6') ? ['security', 'rulec'] : ['rulec'] };
  if (code.startsWith('RC6') && e) properties['security-severity'] = SECURITY_SEVERITY[e.severity];
  return {
    id: code,
    name: title.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase()).replace(/^./, (c) => c.toUpperCase()),
    shortDescription: { text: title },
    fullDescription: { text: e?.explanation ?? title },
    help: { text, markdown: `**${code}: ${title}**\n\n${text}\n\nRun \`rulec explain-code ${code}\` for the same text.` },
    defaultConfiguration: { level: LEVEL[e?.severity ?? 'warning'] },
    properties,
  };
}

function messageText(d: Diagnostic, placedAtPolicy: boolean): string {
  const parts = [d.message];
  if (d.hint) parts.push(`hint: ${d.hint}`);
  if (placedAtPolicy) parts.push('(about no single file; shown at the policy file)');
  return parts.join('\n');
}

function related(list: readonly RelatedLocation[]): Record<string, unknown>[] {
  return list.filter((r) => r.file !== '').map((r, i) => ({ id: i, ...physical(r.file, r), message: { text: r.message } }));
}

function fingerprintKey(d: Diagnostic, lines: FrameLines): string {
  const perFile = Object.prototype.hasOwnProperty.call(lines, d.file) ? lines[d.file] : undefined;
  const text = perFile?.[String(d.range.start.line)];
  return canonicalJson([d.code, d.file, text !== undefined ? text.trim().replace(/\s+/g, ' ') : `message:${d.message}`]);
}

/** Findings about no file when there is no policy file to place them at. */
const unplaceable = (d: Diagnostic, policyFile: string | null): boolean => d.file === '' && policyFile === null;

function notifications(report: Report, policyFile: string | null): Record<string, unknown>[] {
  return diagnosticsOf(report).filter((d) => unplaceable(d, policyFile)).map((d) => ({
    descriptor: { id: d.code }, level: LEVEL[d.severity], message: { text: messageText(d, false) },
  }));
}

function results(report: Report, policyFile: string | null, ruleIndex: Map<string, number>): Record<string, unknown>[] {
  const lines = reportLinesOf(report);
  const seen = new Map<string, number>();
  return diagnosticsOf(report).filter((d) => !unplaceable(d, policyFile)).map((d) => {
    const key = fingerprintKey(d, lines);
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    const atPolicy = d.file === '' && policyFile !== null;
    const file = atPolicy ? (policyFile as string) : d.file;
    const result: Record<string, unknown> = {
      ruleId: d.code,
      ruleIndex: ruleIndex.get(d.code),
      level: LEVEL[d.severity],
      message: { text: messageText(d, atPolicy) },
      locations: [physical(file, atPolicy ? { range: { start: { line: 1, col: 1 }, end: { line: 1, col: 1 } } } : d)],
      partialFingerprints: { 'rulec/v1': `${sha256Hex(key).slice(0, 32)}:${n}` },
    };
    const rel = related(d.related ?? []);
    if (rel.length > 0) result.relatedLocations = rel;
    return result;
  });
}

export function sarifLog(report: Report): Record<string, unknown> {
  const codes = [...new Set(diagnosticsOf(report).map((d) => d.code))].sort();
  const ruleIndex = new Map(codes.map((c, i) => [c, i]));
  const policyFile = report.command === 'diff' ? null : report.policy_file;
  const config = notifications(report, policyFile);
  return {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [{
      tool: { driver: { name: 'rulec', version: report.tool.version, semanticVersion: report.tool.version, informationUri: 'https://www.npmjs.com/package/rulec', rules: codes.map(rule) } },
      originalUriBaseIds: {
        RULEC_MANAGED: { description: { text: 'The managed-policy directory (--managed or the policy\'s managed.dir).' } },
        RULEC_USER: { description: { text: 'The user\'s home directory.' } },
      },
      columnKind: 'utf16CodeUnits',
      ...(config.length > 0 ? { invocations: [{ executionSuccessful: true, toolConfigurationNotifications: config }] } : {}),
      results: results(report, policyFile, ruleIndex),
      properties: { command: report.command },
    }],
  };
}

export const sarifReporter: Reporter = {
  format: 'sarif',
  description: 'for code scanning: SARIF 2.1.0, one result per diagnostic',
  render: (report) => `${jsonText(sarifLog(report))}\n`,
};
