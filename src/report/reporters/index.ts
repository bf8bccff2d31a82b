/**
 * The one place a format name becomes a reporter, and the one way a report
 * becomes output. `renderReport`:
 *   1. masks every detected secret in every string of the report
 *      (redactDeep, src/diagnostics/redact.ts);
 *   2. for the text format, escapes newlines and controls inside each field
 *      (escapeFields), so a file name cannot forge a report line;
 *   3. renders, then masks the output once more (redact: whatever a reporter
 *      derived from the data) and escapes control and bidi characters in it
 *      (escapeControls, src/report/escape.ts): shown as text in text,
 *      Markdown, GitHub and HTML; read back losslessly in JSON and SARIF.
 */
import { NO_REDACTIONS, redact, redactDeep, type Redactions } from '../../diagnostics/redact.js';
import { escapeControls, escapeFields } from '../escape.js';
import { githubReporter } from './github.js';
import { htmlReporter } from './html.js';
import { jsonReporter } from './json.js';
import { markdownReporter } from './markdown.js';
import { sarifReporter } from './sarif.js';
import { textReporter } from './text.js';
import type { Report, ReportFormat, Reporter } from './types.js';

export const REPORTERS: Readonly<Record<ReportFormat, Reporter>> = {
  text: textReporter,
  json: jsonReporter,
  markdown: markdownReporter,
  sarif: sarifReporter,
  github: githubReporter,
  html: htmlReporter,
};

export function renderReport(report: Report, format: ReportFormat, redactions: Redactions = NO_REDACTIONS): string {
  const safe = redactDeep(report, redactions);
  const out = REPORTERS[format].render(format === 'text' ? escapeFields(safe) : safe);
  return escapeControls(redact(out, redactions));
}

export type { Report, ReportFormat, Reporter } from './types.js';
export { REPORT_FORMATS, reportFormatOf } from './types.js';
