/**
 * How a command hands its report to the user: `--format FMT` picks what goes
 * to stdout, each `--report FMT=FILE` also writes one format to a file (so one
 * CI run yields the log annotations, the PR comment and the SARIF upload).
 * Requests are checked before any work starts; files are written whole
 * (temp file, then rename), even when the command exits 1.
 */
import { existsSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { compilerVersion } from '../config/package-files.js';
import { REPO_POLICY_PATH } from '../config/policy-path.js';
import { classifyPath } from '../formats/formats.js';
import { UsageError } from '../util/errors.js';
import type { Redactions } from '../diagnostics/redact.js';
import { REPORT_FORMATS, reportFormatOf, type Report, type ReportFormat } from '../report/reporters/types.js';
import type { ToolInfo } from '../report/reporters/types.js';
import { toPosix } from '../util/posix-path.js';
import type { OptionSpec, Parsed } from './args.js';
import type { Io } from './io.js';
import { realPath } from '../util/real-path.js';

export const REPORT_OPTIONS: OptionSpec = {
  format: { type: 'string' },
  report: { type: 'string', multiple: true },
};

export const REPORT_HELP = `  --format FMT      output on stdout: ${REPORT_FORMATS.join(', ')} (default text)
  --report FMT=FILE also write the report in FMT to FILE; repeatable
                    (e.g. --report markdown=rulec.md --report sarif=rulec.sarif)`;

export interface ReportRequest {
  format: ReportFormat;
  files: { format: ReportFormat; path: string }[];
}

/** Parse --format and --report; a bad name or a missing file is a usage error before anything runs. */
export function reportRequest(values: Parsed['values'], io: Io): ReportRequest {
  const format = reportFormatOf(typeof values.format === 'string' ? values.format : 'text');
  const specs = Array.isArray(values.report) ? values.report : [];
  const files = specs.map((spec) => {
    const eq = spec.indexOf('=');
    if (eq <= 0 || eq === spec.length - 1) throw new UsageError(`--report needs FORMAT=FILE, got "${spec}"`);
    const path = resolve(io.cwd, spec.slice(eq + 1));
    if (inputName(path)) throw new UsageError(`--report ${spec}: ${path} has the name of an instruction file or of rulec's policy; rulec never writes a report there`);
    return { format: reportFormatOf(spec.slice(0, eq)), path };
  });
  return { format, files };
}

/**
 * Whether an absolute path has the name of something rulec reads (an instruction file of any
 * format, a repository's policy) wherever it lies: `--report sarif=AGENTS.md` is a slip that
 * would replace the file, and nobody names a report CLAUDE.md on purpose. Any tail of the path
 * may be the part below a repository root (`.github/copilot-instructions.md` and `.cursorrules`
 * are instruction files only there); an existing file is also judged by its real name, which a
 * case-insensitive file system gives `agents.md` as `AGENTS.md`.
 */
function inputName(path: string): boolean {
  let real: string | null = null;
  try {
    real = realPath(path);
  } catch {
    // not there (yet): its name is all there is to judge
  }
  return [path, ...(real !== null && real !== path ? [real] : [])].some((p) => {
    const parts = toPosix(p).replace(/^(?:[A-Za-z]:)?\/+/, '').split('/');
    return parts.some((_, i) => {
      const tail = parts.slice(i).join('/');
      return tail === REPO_POLICY_PATH || classifyPath(tail) !== null;
    });
  });
}

export function toolInfo(): ToolInfo {
  return { name: 'rulec', version: compilerVersion() };
}

/** The policy file as the repository names it (posix, repo-relative), when it lies inside the repository. */
export function policyFileOf(repoDir: string, policyFile: string | undefined): string | null {
  const file = policyFile ?? (existsSync(resolve(repoDir, REPO_POLICY_PATH)) ? resolve(repoDir, REPO_POLICY_PATH) : null);
  if (file === null) return null;
  const rel = relative(repoDir, file);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? null : toPosix(rel);
}

/** The file descriptor a path names when it is one of this process's own (`/dev/stdout`, `/dev/fd/N`, `/proc/self/fd/N`). */
function ownDescriptor(path: string): number | null {
  if (path === '/dev/stdout') return 1;
  if (path === '/dev/stderr') return 2;
  const m = /^\/(?:dev|proc\/self)\/fd\/(\d{1,9})$/.exec(path);
  return m ? Number(m[1]) : null;
}

/**
 * Write a --report file whole: a regular file (or a link to one, which stays a link) is replaced
 * atomically, through a temporary file beside it; a FIFO, a terminal or a device is written into,
 * as a shell redirection would, never replaced by a file; `/dev/stdout`, `/dev/stderr` and
 * `/dev/fd/N` are this process's own streams, written in order with the rest of its output
 * (renaming a file over a redirected stdout would take the earlier output with it).
 */
function writeWhole(io: Io, path: string, text: string): void {
  const fail = (e: unknown): never => {
    throw new UsageError(`cannot write report ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  };
  const fd = ownDescriptor(path);
  if (fd === 1) return io.out(text);
  if (fd === 2) return io.err(text);
  if (fd !== null) {
    try {
      writeSync(fd, text);
    } catch (e) {
      fail(e);
    }
    return;
  }
  let st;
  try {
    st = statSync(path, { throwIfNoEntry: false });
  } catch (e) {
    return fail(e);
  }
  if (st?.isDirectory()) fail(new Error('it is a directory'));
  if (st && !st.isFile()) {
    try {
      writeFileSync(path, text);
    } catch (e) {
      fail(e);
    }
    return;
  }
  const target = st ? realPath(path) : path;
  mkdirSync(dirname(target), { recursive: true });
  const tmp = `${target}.rulec-${process.pid}.tmp`;
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, target);
  } catch (e) {
    rmSync(tmp, { force: true });
    fail(e);
  }
}

/** Print the report on stdout in the requested format and write every --report file; `redactions`: the run's detected secrets (CompileResult.redactions). */
export async function emitReport(io: Io, request: ReportRequest, report: Report, redactions: Redactions): Promise<void> {
  // The reporters are loaded only when a report is printed: `rulec build --help` never needs them.
  const { renderReport } = await import('../report/reporters/index.js');
  for (const f of request.files) writeWhole(io, f.path, renderReport(report, f.format, redactions));
  io.out(renderReport(report, request.format, redactions));
}
