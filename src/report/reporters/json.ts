/**
 * The JSON reporter: the data CI consumes. Lint and build print the shape of
 * schemas/report.schema.json; a failed build still prints its summary, every
 * diagnostic and every conflict event, so nothing is lost when no bundle is
 * written. Diff and check print BundleDiff / CheckReport as they are
 * (schemas/diff.schema.json, schemas/check.schema.json).
 */
import { jsonText } from '../escape.js';
import type { Report, Reporter } from './types.js';

function jsonOf(report: Report): unknown {
  switch (report.command) {
    case 'lint':
      return { diagnostics: report.diagnostics, conflicts: report.conflicts };
    case 'build':
      return {
        bundle_id: report.bundle_id, digest: report.digest, written: report.written,
        ...(report.check ? { stale: report.check.stale } : {}),
        summary: report.summary, diagnostics: report.diagnostics, conflicts: report.conflicts,
      };
    case 'diff':
      return report.diff;
    case 'check':
      return report.check;
  }
}

export const jsonReporter: Reporter = {
  format: 'json',
  description: 'for programs: the report as JSON (schemas/report.schema.json, diff and check schemas)',
  render: (report) => `${jsonText(jsonOf(report))}\n`,
};
