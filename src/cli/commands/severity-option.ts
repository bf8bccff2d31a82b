/**
 * `--severity CODE=LEVEL` (build and lint): one-off severity overrides, merged
 * over the policy's. Its own module: checking a code loads the whole code
 * catalogue, which commands without the option (explain) never need.
 */
import type { CompileOptions } from '../../compile.js';
import type { Severity } from '../../diagnostics/diagnostic.js';
import { findCatalogueEntry } from '../../diagnostics/catalogue.js';
import { UsageError } from '../../util/errors.js';
import type { OptionSpec, Parsed } from '../args.js';

export const SEVERITY_OPTION: OptionSpec = { severity: { type: 'string', multiple: true } };
export const SEVERITY_HELP = `  --severity CODE=LEVEL  this run only: report CODE as error, warning, info or off
                    (over the policy's severity:); repeatable`;

const LEVELS = ['error', 'warning', 'info', 'off'] as const;

export function severityOverrides(values: Parsed['values']): Record<string, Severity | 'off'> {
  const out = Object.create(null) as Record<string, Severity | 'off'>;
  for (const pair of (values.severity as string[] | undefined) ?? []) {
    const m = /^([^=]+)=(.*)$/.exec(pair);
    if (!m) throw new UsageError(`--severity expects CODE=LEVEL, got "${pair}"`);
    const code = (m[1] as string).trim().toUpperCase();
    const level = (m[2] as string).trim().toLowerCase();
    if (!findCatalogueEntry(code)) throw new UsageError(`--severity: no such diagnostic code "${m[1]}" (rulec explain-code lists them)`);
    if (!(LEVELS as readonly string[]).includes(level)) throw new UsageError(`--severity ${code}: level must be one of ${LEVELS.join(', ')}, got "${m[2]}"`);
    if (code === 'RC3201' && level !== 'error') throw new UsageError('--severity RC3201: a violation of an enforced managed rule is always an error');
    out[code] = level as Severity | 'off';
  }
  return out;
}

/** The compile options `--severity` sets: none when it is not given. */
export function severityOption(values: Parsed['values']): Pick<CompileOptions, 'severity'> {
  return values.severity ? { severity: severityOverrides(values) } : {};
}
