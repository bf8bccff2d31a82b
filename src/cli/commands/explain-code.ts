/** `rulec explain-code CODE`: the catalogue entry of a diagnostic code. */
import { allCatalogueEntries, findCatalogueEntry } from '../../diagnostics/catalogue.js';
import { UsageError } from '../../util/errors.js';
import { formatOption, parseCommandArgs } from '../args.js';
import { EXIT, type Io } from '../io.js';

export const EXPLAIN_CODE_HELP = `Usage: rulec explain-code [CODE] [--format text|json]

Explain a diagnostic code (e.g. RC2102): its default severity, what it means and
how to fix it. Without CODE, list every code.`;

export async function explainCodeCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, { format: { type: 'string' } }, 1);
  if (values.help) return io.out(`${EXPLAIN_CODE_HELP}\n`), EXIT.clean;
  const format = formatOption(values);
  const code = positionals[0];
  const entries = code === undefined ? allCatalogueEntries() : [findCatalogueEntry(code)];
  if (entries[0] === undefined) throw new UsageError(`unknown diagnostic code ${code}; run rulec explain-code for the list`);
  const list = entries.filter((e) => e !== undefined);
  if (format === 'json') io.out(`${JSON.stringify(code === undefined ? list : list[0], null, 2)}\n`);
  else if (code === undefined) io.out(`${list.map((e) => `${e.code}  ${e.severity.padEnd(7)}  ${e.title}`).join('\n')}\n`);
  else for (const e of list) io.out(`${e.code} (${e.severity}): ${e.title}\n\n${e.explanation}\n${e.hint ? `\nhint: ${e.hint}\n` : ''}`);
  return EXIT.clean;
}
