/** argv → typed options, with the command's help text on --help and a UsageError on anything unknown. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from '../util/errors.js';
import { nearest } from '../util/nearest.js';

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;

export interface Parsed {
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
}

export function parseCommandArgs(argv: string[], options: OptionSpec, maxPositionals: number): Parsed {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
  } catch (e) {
    throw usageOf(e as NodeJS.ErrnoException, options);
  }
  // `--repo=` or `--out ""` names nothing: resolved as a path it would quietly be the current directory.
  const values = parsed.values as Parsed['values'];
  if (values.help === true) return { values, positionals: parsed.positionals };
  for (const [name, value] of Object.entries(values)) {
    if (value === '' || (Array.isArray(value) && value.includes(''))) throw new UsageError(`--${name} needs a value`);
  }
  if (parsed.positionals.includes('')) throw new UsageError('an empty argument names nothing');
  if (parsed.positionals.length > maxPositionals) {
    throw new UsageError(`unexpected argument: ${parsed.positionals[maxPositionals]}`);
  }
  return { values, positionals: parsed.positionals };
}

/**
 * node's parseArgs errors in rulec's words: an unknown option with the known one it is closest
 * to, an option without its value, a flag given one. The option named in the message is the
 * user's own argument; anything else keeps node's message.
 */
function usageOf(e: NodeJS.ErrnoException, options: OptionSpec): UsageError {
  const message = e.message.replace(/^TypeError \[[A-Z_]+\]: /, '');
  const named = /^Option '(?:-[^,' ]+, )?(--[^ ']+)(?: <value>)?'/.exec(message)?.[1];
  if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const given = /^Unknown option '([^']*)'/.exec(message)?.[1] ?? '';
    const near = given.startsWith('--') ? nearest(given.split('=')[0] as string, ['help', ...Object.keys(options)].map((o) => `--${o}`)) : null;
    return new UsageError(`unknown option ${given}${near ? ` (did you mean ${near}?)` : ''}; see --help`);
  }
  if (e.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && named !== undefined) {
    if (/does not take an argument/.test(message)) return new UsageError(`${named} takes no value`);
    // `--repo --check`: the next word is an option, not the value.
    return new UsageError(`${named} needs a value${/ambiguous/.test(message) ? ` (for one that starts with '-', write ${named}=-…)` : ''}`);
  }
  return new UsageError(message);
}

export function formatOption(values: Parsed['values']): 'text' | 'json' {
  const f = values.format ?? 'text';
  if (f !== 'text' && f !== 'json') throw new UsageError(`--format must be text or json, got "${String(f)}"`);
  return f;
}

export function str(values: Parsed['values'], key: string): string | undefined {
  const v = values[key];
  return typeof v === 'string' ? v : undefined;
}
