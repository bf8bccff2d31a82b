/** `rulec lint [PATH…]`: report every problem in every instruction file; writes nothing. */
import { resolve, relative } from 'node:path';
import { compile } from '../../compile.js';
import { hasErrors } from '../../diagnostics/diagnostic.js';
import { lintReportOf } from '../../report/reporters/from-compile.js';
import { toPosix } from '../../util/posix-path.js';
import { parseCommandArgs } from '../args.js';
import { EXIT, type Io } from '../io.js';
import { emitReport, policyFileOf, REPORT_HELP, REPORT_OPTIONS, reportRequest, toolInfo } from '../report-output.js';
import { COMPILE_INPUT_HELP, COMPILE_OPTIONS, compileOptionsFrom, displayPath } from './shared.js';

export const LINT_HELP = `Usage: rulec lint [PATH...] [options]

Run every check that build runs (frontmatter, imports, globs, budgets, the lint
catalogue: secrets, hidden Unicode, dangerous commands, prompt injection, fence
forgery) and report every problem in every file. With PATHs, only diagnostics
in those files or directories are shown. Writes nothing.

Options:
${COMPILE_INPUT_HELP}
${REPORT_HELP}
  -h, --help        show this help

Exit codes: 0 no errors, 1 errors found, 2 usage or internal failure.`;

export async function lintCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, { ...COMPILE_OPTIONS, ...REPORT_OPTIONS }, Number.MAX_SAFE_INTEGER);
  if (values.help) return io.out(`${LINT_HELP}\n`), EXIT.clean;
  const request = reportRequest(values, io);
  const options = compileOptionsFrom(values, io);
  const result = await compile(options);
  const filters = positionals.map((p) => toPosix(relative(options.repoDir, resolve(io.cwd, p))).replace(/\/+$/, ''));
  const inScope = filters.length === 0 ? null : (file: string): boolean => filters.some((f) => f === '' || file === f || file.startsWith(`${f}/`));
  const shown = inScope === null ? result.diagnostics : result.diagnostics.filter((d) => inScope(d.file));
  const where = { repo: displayPath(io, options.repoDir), policy_file: policyFileOf(options.repoDir, options.policyFile) };
  emitReport(io, request, lintReportOf(result, shown, inScope, where, toolInfo()), result.redactions);
  return hasErrors(shown) ? EXIT.errors : EXIT.clean;
}
