/** `rulec lint [PATH…]`: report every problem in every instruction file; writes nothing. */
import { compile } from '../../compile.js';
import { diag, hasErrors } from '../../diagnostics/diagnostic.js';
import { formatDiagnostics, summaryLine } from '../../report/text.js';
import { formatOption, parseCommandArgs } from '../args.js';
import { EXIT, type Io } from '../io.js';
import { inWorkTree, repoRelative } from './repo-path.js';
import { COMPILE_HELP, COMPILE_OPTIONS, SEVERITY_HELP, SEVERITY_OPTION, compileOptionsFrom, diagnosticsJson, linesOf } from './shared.js';

export const LINT_HELP = `Usage: rulec lint [PATH...] [options]

Run every check that build runs (frontmatter, imports, globs, budgets, the lint
catalogue: secrets, hidden Unicode, dangerous commands, prompt injection, fence
forgery) and report every problem in every file. With PATHs, only diagnostics
in those files or directories are shown. Personal and git-ignored instruction
files (the local layer) are always checked: agents load them. Writes nothing.

Options:
${COMPILE_HELP}
${SEVERITY_HELP}
  -h, --help        show this help

Exit codes: 0 no errors, 1 errors found, 2 usage or internal failure.`;

export async function lintCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, { ...COMPILE_OPTIONS, ...SEVERITY_OPTION }, Number.MAX_SAFE_INTEGER);
  if (values.help) return io.out(`${LINT_HELP}\n`), EXIT.clean;
  const format = formatOption(values);
  // The local layer (personal and git-ignored instruction files) is what agents load on this machine:
  // lint checks it whether or not a bundle would include it.
  const options = { ...compileOptionsFrom(values, io), includeLocal: true };
  const filters = positionals.map((p) => repoRelative(io, options.repoDir, p));
  const result = await compile(options);
  // A PATH that names nothing is an error of its own: "No problems found" would be a wrong answer.
  const absent = filters.filter((f) => !inWorkTree(options.repoDir, f))
    .map((f) => diag('RC1008', { file: f, message: `${f} is not in the repository (no such file or directory); nothing to lint there` }));
  const shown = filters.length === 0 ? result.diagnostics
    : [...absent, ...result.diagnostics.filter((d) => filters.some((f) => f === '' || d.file === f || d.file.startsWith(`${f}/`)))];
  if (format === 'json') io.out(`${JSON.stringify({ diagnostics: diagnosticsJson(shown) }, null, 2)}\n`);
  else io.out(`${formatDiagnostics(shown, linesOf(result))}${shown.length > 0 ? '\n' : ''}${summaryLine(shown)}\n`);
  return hasErrors(shown) ? EXIT.errors : EXIT.clean;
}
