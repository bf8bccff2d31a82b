/**
 * The one place a format name becomes a reporter, and the one way a report
 * becomes output: `renderReport` redacts secrets from the data, renders it,
 * and escapes control and bidi characters in the output (protect.ts).
 */
import { UsageError } from '../../diagnostics/errors.js';
import { githubReporter } from './github.js';
import { htmlReporter } from './html.js';
import { jsonReporter } from './json.js';
import { markdownReporter } from './markdown.js';
import { escapeControls, oneLineFields, redactReport, type Secret } from './protect.js';
import { sarifReporter } from './sarif.js';
import { textReporter } from './text.js';
import { REPORT_FORMATS, type Report, type ReportFormat, type Reporter } from './types.js';

export const REPORTERS: Readonly<Record<ReportFormat, Reporter>> = {
  text: textReporter,
  json: jsonReporter,
  markdown: markdownReporter,
  sarif: sarifReporter,
  github: githubReporter,
  html: htmlReporter,
};


export function isReportFormat(name: string): name is ReportFormat {
  return (REPORT_FORMATS as readonly string[]).includes(name);
}

/** The reporter for `name`, or a UsageError that lists every format. */
export function reporterFor(name: string): Reporter {
  if (!isReportFormat(name)) throw new UsageError(`unknown format "${name}"; use one of: ${REPORT_FORMATS.join(', ')}`);
  return REPORTERS[name];
}

export function renderReport(report: Report, format: ReportFormat, secrets: readonly Secret[] = []): string {
  const safe = redactReport(report, secrets);
  return escapeControls(REPORTERS[format].render(format === 'text' ? oneLineFields(safe) : safe));
}

export type { Report, ReportFormat, Reporter } from './types.js';
export { REPORT_FORMATS } from './types.js';
export type { Secret } from './protect.js';
