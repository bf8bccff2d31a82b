/** `rulec lint [PATH…]`: report every problem in every instruction file; writes nothing. */
import { resolve, relative } from 'node:path';
import { compile } from '../../compile.js';
import { hasErrors } from '../../diagnostics/diagnostic.js';
import { formatDiagnostics, summaryLine } from '../../report/text.js';
import { toPosix } from '../../util/posix-path.js';
import { formatOption, parseCommandArgs } from '../args.js';
import { EXIT, type Io } from '../io.js';
import { COMPILE_HELP, COMPILE_OPTIONS, compileOptionsFrom, diagnosticsJson, linesOf } from './shared.js';

export const LINT_HELP = `Usage: rulec lint [PATH...] [options]

Run every check that build runs (frontmatter, imports, globs, budgets, the lint
catalogue: secrets, hidden Unicode, dangerous commands, prompt injection, fence
forgery) and report every problem in every file. With PATHs, only diagnostics
in those files or directories are shown. Personal and git-ignored instruction
files (the local layer) are always checked: agents load them. Writes nothing.

Options:
${COMPILE_HELP}
  -h, --help        show this help

Exit codes: 0 no errors, 1 errors found, 2 usage or internal failure.`;

export async function lintCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, COMPILE_OPTIONS, Number.MAX_SAFE_INTEGER);
  if (values.help) return io.out(`${LINT_HELP}\n`), EXIT.clean;
  const format = formatOption(values);
  // The local layer (personal and git-ignored instruction files) is what agents load on this machine:
  // lint checks it whether or not a bundle would include it.
  const options = { ...compileOptionsFrom(values, io), includeLocal: true };
  const result = await compile(options);
  const filters = positionals.map((p) => toPosix(relative(options.repoDir, resolve(io.cwd, p))).replace(/\/+$/, ''));
  const shown = filters.length === 0 ? result.diagnostics
    : result.diagnostics.filter((d) => filters.some((f) => f === '' || d.file === f || d.file.startsWith(`${f}/`)));
  if (format === 'json') io.out(`${JSON.stringify({ diagnostics: diagnosticsJson(shown) }, null, 2)}\n`);
  else io.out(`${formatDiagnostics(shown, linesOf(result))}${shown.length > 0 ? '\n' : ''}${summaryLine(shown)}\n`);
  return hasErrors(shown) ? EXIT.errors : EXIT.clean;
}
