/**
 * What every reporter reads and the one interface each implements.
 *
 * A report is plain data (no Map, no function): the CLI turns a compile
 * result, a diff or a check into one of these, and a reporter turns it into a
 * string. Reporters never touch the file system, the clock or the process, so
 * the same report renders to the same bytes everywhere.
 */
import { UsageError } from '../../util/errors.js';
import type { ConflictEvent } from '../../conflicts/events.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import type { BundleDiff } from '../../diff/bundle-diff.js';
import type { CheckReport } from '../../diff/check-model.js';

export const REPORT_FORMATS = ['text', 'json', 'markdown', 'sarif', 'github', 'html'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** `name` as a report format, or a UsageError that lists every format. */
export function reportFormatOf(name: string): ReportFormat {
  if (!(REPORT_FORMATS as readonly string[]).includes(name)) throw new UsageError(`unknown format "${name}"; use one of: ${REPORT_FORMATS.join(', ')}`);
  return name as ReportFormat;
}

/** The tool that made the report (SARIF's driver, the HTML page's footer). */
export interface ToolInfo {
  name: 'rulec';
  version: string;
}

/**
 * The source lines diagnostics point at, for code frames: file → line (1-based,
 * as a decimal string) → the line's text. Only lines some diagnostic names.
 */
export type FrameLines = Record<string, Record<string, string>>;

export interface BuildSummary {
  paths: number;
  sources: number;
  layers: Record<string, number>;
  variants: number;
  attachments: number;
  tokens: number;
  largest: { id: string; tokens: number; paths: number } | null;
}

/** What one agent profile injects for a variant (from the manifest). */
export interface ProfileFit {
  profile: string;
  bytes: number;
  tokens: number;
  fits: boolean;
  dropped: string[];
}

/** One variant of a build: the paths it serves and its cost per agent. */
export interface VariantFacts {
  id: string;
  /** Tracked paths served by the variant. */
  paths: number;
  tokens: number;
  bytes: number;
  /** Index directories served ('.' for the root), at most 5, then `dirs_omitted`. */
  dirs: string[];
  dirs_omitted: number;
  profiles: ProfileFit[];
}

export interface LintReport {
  command: 'lint';
  tool: ToolInfo;
  /** The repository as the user named it (relative to the working directory when inside it). */
  repo: string;
  /** The policy file, repo-relative, when the repository has one (where SARIF places findings about no single file). */
  policy_file: string | null;
  diagnostics: Diagnostic[];
  /** Conflict events with a side in the files shown (all of them without PATH filters). */
  conflicts: ConflictEvent[];
  lines: FrameLines;
}

export interface BuildReport {
  command: 'build';
  tool: ToolInfo;
  repo: string;
  bundle_id: string;
  digest: string;
  tokenizer: string;
  /** The bundle directory written, null when errors were found or with --check. */
  written: string | null;
  /** With --check: the output directory named and whether it lacks this exact bundle. */
  check: { out: string; stale: boolean } | null;
  summary: BuildSummary;
  /** The policy's standing-context budget per variant, in tokens. */
  variant_budget: number;
  /** Most paths first, then by id; at most 50, then `variants_omitted`. */
  variants: VariantFacts[];
  variants_omitted: number;
  policy_file: string | null;
  diagnostics: Diagnostic[];
  conflicts: ConflictEvent[];
  lines: FrameLines;
}

export interface DiffReport {
  command: 'diff';
  tool: ToolInfo;
  diff: BundleDiff;
}

export interface CheckCommandReport {
  command: 'check';
  tool: ToolInfo;
  check: CheckReport;
  policy_file: string | null;
  /** Source lines of head's files that the check's diagnostics point at. */
  lines: FrameLines;
}

export type Report = LintReport | BuildReport | DiffReport | CheckCommandReport;

/** A format: pure, report in, the whole output out. */
export interface Reporter {
  readonly format: ReportFormat;
  /** What the format is for, one line (shown in --help and the unknown-format error). */
  readonly description: string;
  render(report: Report): string;
}
