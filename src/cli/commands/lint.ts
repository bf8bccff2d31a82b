/** `rulec lint [PATH…]`: report every problem in every instruction file; writes nothing. */
import { diag, hasErrors } from '../../diagnostics/diagnostic.js';
import { lintReportOf } from '../../report/reporters/from-compile.js';
import { parseCommandArgs } from '../args.js';
import { EXIT, type Io } from '../io.js';
import { emitReport, policyFileOf, REPORT_HELP, REPORT_OPTIONS, reportRequest, toolInfo } from '../report-output.js';
import { inWorkTree, repoRelative } from './repo-path.js';
import { COMPILE_INPUT_HELP, COMPILE_OPTIONS, cacheWanted, compileOptionsFrom, displayPath } from './shared.js';
import { SEVERITY_HELP, SEVERITY_OPTION, severityOption } from './severity-option.js';
import { withNotes } from '../../cache/build-memo.js';

export const LINT_HELP = `Usage: rulec lint [PATH...] [options]

Run every check that build runs (frontmatter, imports, globs, budgets, the lint
catalogue: secrets, hidden Unicode, dangerous commands, prompt injection, fence
forgery) and report every problem in every file. With PATHs, only diagnostics
in those files or directories are shown. Personal and git-ignored instruction
files (the local layer) are always checked: agents load them. Writes nothing.

Options:
${COMPILE_INPUT_HELP}
${SEVERITY_HELP}
${REPORT_HELP}
  -h, --help        show this help

Exit codes: 0 no errors, 1 errors found, 2 usage or internal failure.`;

export async function lintCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, { ...COMPILE_OPTIONS, ...SEVERITY_OPTION, ...REPORT_OPTIONS }, Number.MAX_SAFE_INTEGER);
  if (values.help) return io.out(`${LINT_HELP}\n`), EXIT.clean;
  const request = reportRequest(values, io);
  // The local layer (personal and git-ignored instruction files) is what agents load on this machine:
  // lint checks it whether or not a bundle would include it.
  const options = { ...compileOptionsFrom(values, io), ...severityOption(values), includeLocal: true };
  const filters = positionals.map((p) => repoRelative(io, options.repoDir, p));
  const [{ compileCounted }, { cacheNotes, openBuildCache }] = await Promise.all([import('../../cache/cached-compile.js'), import('../../cache/build-cache.js')]);
  const cache = await openBuildCache(options.repoDir, cacheWanted(values), false);
  const result = await compileCounted(options, cache);
  // A PATH that names nothing is an error of its own: "No problems found" would be a wrong answer.
  const absent = filters.filter((f) => !inWorkTree(options.repoDir, f))
    .map((f) => diag('RC1008', { file: f, message: `${f} is not in the repository (no such file or directory); nothing to lint there` }));
  const inScope = filters.length === 0 ? null : (file: string): boolean => filters.some((f) => f === '' || file === f || file.startsWith(`${f}/`));
  const shown = inScope === null ? result.diagnostics : [...absent, ...result.diagnostics.filter((d) => inScope(d.file))];
  const notes = cacheNotes(cache, result.policy);
  const where = { repo: displayPath(io, options.repoDir), policy_file: policyFileOf(options.repoDir, options.policyFile) };
  const report = lintReportOf(result, shown, inScope, where, toolInfo());
  await emitReport(io, request, { ...report, diagnostics: withNotes(report.diagnostics, notes) }, result.redactions);
  return hasErrors(shown) ? EXIT.errors : EXIT.clean;
}
