/** argv → typed options, with the command's help text on --help and a UsageError on anything unknown. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from '../util/errors.js';

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
    throw new UsageError((e as Error).message.replace(/^TypeError \[[A-Z_]+\]: /, ''));
  }
  if (parsed.positionals.length > maxPositionals) {
    throw new UsageError(`unexpected argument: ${parsed.positionals[maxPositionals]}`);
  }
  return { values: parsed.values as Parsed['values'], positionals: parsed.positionals };
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
