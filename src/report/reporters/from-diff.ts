/**
 * The seam for `rulec diff` and `rulec check`: wrap their plain data in a
 * report, then hand it to renderReport / emitReport like build and lint do.
 *
 *   await emitReport(io, reportRequest(values, io), diffReportOf(diff, toolInfo()), secrets);
 *   await emitReport(io, request, checkReportOf(check, { lines, policy_file }, toolInfo()), secrets);
 *
 * `lines` holds head's source lines that the check's diagnostics point at
 * (frameLinesOf in from-compile.ts gives them from head's compile result).
 */
import type { BundleDiff } from '../../diff/bundle-diff.js';
import type { CheckReport } from '../../diff/check-model.js';
import type { CheckCommandReport, DiffReport, FrameLines, ToolInfo } from './types.js';

export function diffReportOf(diff: BundleDiff, tool: ToolInfo): DiffReport {
  return { command: 'diff', tool, diff };
}

export function checkReportOf(check: CheckReport, head: { lines: FrameLines; policy_file: string | null }, tool: ToolInfo): CheckCommandReport {
  return { command: 'check', tool, check, policy_file: head.policy_file, lines: head.lines };
}
