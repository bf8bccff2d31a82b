/**
 * What every `rulec registry` subcommand shares: its options (store, trust
 * file, keys, actor, channel, format), turning them into a store, a trust
 * policy and signing keys, and reporting an outcome or a refusal.
 *
 * Exit codes: 0 done; 1 the registry refused the operation or found a problem
 * (a coded RC7xxx diagnostic); 2 bad flags, an unreadable key or a missing or
 * invalid trust file (configuration).
 */
import { readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { resolve } from 'node:path';
import type { Diagnostic } from '../../../diagnostics/diagnostic.js';
import { UsageError } from '../../../util/errors.js';
import { RegistryError } from '../../../registry/errors.js';
import { loadSigningKey, type SigningKey } from '../../../registry/keys.js';
import { DEFAULT_CHANNEL, GRAMMAR } from '../../../registry/model.js';
import { openStore } from '../../../registry/stores/open-store.js';
import type { Store } from '../../../registry/store.js';
import { parseTrust, type TrustPolicy } from '../../../registry/trust.js';
import { DEFAULT_INDEX_LIFETIME_MS, type WriterOptions } from '../../../registry/writer.js';
import { formatDiagnostics } from '../../../report/text.js';
import { formatOption, parseCommandArgs, str, type OptionSpec, type Parsed } from '../../args.js';
import { EXIT, type Io } from '../../io.js';
import { displayPath } from '../shared.js';

export const DEFAULT_STORE = '.rulec/registry';
export const DEFAULT_TRUST = '.rulec/trust.json';
export const DEFAULT_STATE = '.rulec/admit';

export interface Subcommand {
  help: string;
  options: OptionSpec;
  maxPositionals: number;
  run(ctx: Context): Promise<number>;
}

export interface Context {
  io: Io;
  values: Parsed['values'];
  positionals: string[];
  format: 'text' | 'json';
}

export const STORE_OPTIONS: OptionSpec = { store: { type: 'string' }, trust: { type: 'string' }, format: { type: 'string' } };
export const WRITER_OPTIONS: OptionSpec = { ...STORE_OPTIONS, key: { type: 'string', multiple: true }, actor: { type: 'string' }, 'expires-in': { type: 'string' } };

export const STORE_HELP = `  --store STORE      the registry store: a directory (default: ${DEFAULT_STORE}),
                     git+URL (a git remote or the path of a bare repository),
                     or oci://HOST/REPO (a mirror: read only)
  --trust FILE       the trust file: keys, roles, thresholds (default: ${DEFAULT_TRUST})
  --format FMT       text (default) or json`;
export const WRITER_HELP = `${STORE_HELP}
  --key FILE         a private key to sign with (repeatable; default: $RULEC_KEY,
                     a list separated by ':')
  --actor NAME       who asks, for the audit log (default: $RULEC_ACTOR or the user name)
  --expires-in DUR   lifetime of the new signed index: 30d (default), 12h, 90m`;
export const CHANNEL_HELP = `  --channel NAME     the channel (default: ${DEFAULT_CHANNEL})`;

/** Parse argv for a subcommand and run it, mapping refusals to exit codes. */
export async function runSubcommand(name: string, sub: Subcommand, argv: string[], io: Io): Promise<number> {
  try {
    return await runParsed(name, sub, argv, io);
  } catch (e) {
    // Named after the subcommand the user typed: `rulec registry canary: --bps …`.
    if (e instanceof UsageError) return io.err(`rulec registry ${name}: ${e.message}\n`), EXIT.failure;
    throw e;
  }
}

async function runParsed(name: string, sub: Subcommand, argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, sub.options, sub.maxPositionals);
  if (values.help) return io.out(`${sub.help}\n`), EXIT.clean;
  const format = formatOption(values);
  try {
    return await sub.run({ io, values, positionals, format });
  } catch (e) {
    if (e instanceof TrustFileError) return report(io, format, e.diagnostics, `registry ${name}`), EXIT.failure;
    if (e instanceof RegistryError) return report(io, format, e.diagnostics, `registry ${name}`), EXIT.errors;
    if (isBundleError(e)) return report(io, format, [e.diagnostic], `registry ${name}`), EXIT.errors;
    throw e;
  }
}

/** Print a refusal: diagnostics as text (like tsc) or as JSON `{ok: false, diagnostics}`. */
export function report(io: Io, format: 'text' | 'json', diagnostics: readonly Diagnostic[], what: string): void {
  if (format === 'json') io.out(`${JSON.stringify({ ok: false, diagnostics }, null, 2)}\n`);
  else io.out(`${formatDiagnostics(diagnostics, () => undefined)}rulec ${what}: refused (${diagnostics.map((d) => d.code).join(', ')})\n`);
}

/** Notes that came with a success (repairs, warnings), printed before the result in text. */
export function notes(diagnostics: readonly Diagnostic[]): string {
  return diagnostics.length === 0 ? '' : `${formatDiagnostics(diagnostics, () => undefined)}\n`;
}

/** openBundle's BundleError, recognised without loading the bundle reader (and its schema validator) for every subcommand. */
function isBundleError(e: unknown): e is Error & { diagnostic: Diagnostic } {
  return e instanceof Error && e.name === 'BundleError' && typeof (e as { diagnostic?: unknown }).diagnostic === 'object';
}

class TrustFileError extends Error {
  constructor(readonly diagnostics: Diagnostic[]) {
    super('invalid trust file');
  }
}

export function storeFrom(ctx: Context, spec = str(ctx.values, 'store') ?? DEFAULT_STORE): Promise<Store> {
  return openStore(spec, { cwd: ctx.io.cwd });
}

/** A store's location for messages: a local directory relative to the working directory, a remote as given. */
export function storeLabel(ctx: Context, store: Store): string {
  return /^(git\+|oci(\+http)?:\/\/)/.test(store.location) ? store.location : displayPath(ctx.io, store.location);
}

export function trustFrom(ctx: Context): TrustPolicy {
  const given = str(ctx.values, 'trust');
  const path = resolve(ctx.io.cwd, given ?? DEFAULT_TRUST);
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    const missing = (e as NodeJS.ErrnoException).code === 'ENOENT';
    throw new UsageError(missing
      ? `no trust file at ${given ?? DEFAULT_TRUST}; create one with: rulec keys generate --out KEYFILE --trust ${given ?? DEFAULT_TRUST} --roles publish,promote,revoke`
      : `cannot read trust file ${path}: ${(e as NodeJS.ErrnoException).code}`);
  }
  const parsed = parseTrust(bytes, given ?? DEFAULT_TRUST);
  if (!parsed.ok) throw new TrustFileError(parsed.diagnostics);
  return parsed.trust;
}

export function keysFrom(ctx: Context): SigningKey[] {
  const given = ctx.values.key;
  const paths = Array.isArray(given) ? given : (process.env.RULEC_KEY ?? '').split(':').filter((p) => p !== '');
  return paths.map((p) => loadSigningKey(resolve(ctx.io.cwd, p)));
}

export function actorFrom(ctx: Context): string {
  const actor = str(ctx.values, 'actor') ?? process.env.RULEC_ACTOR ?? safeUser();
  if (actor.length === 0 || actor.length > 200) throw new UsageError('--actor must be 1–200 characters');
  return actor;
}

function safeUser(): string {
  try {
    return userInfo().username || 'unknown';
  } catch {
    return 'unknown';
  }
}

/** `30d`, `12h`, `90m`, `45s` → milliseconds. */
export function durationMs(text: string): number {
  const m = /^(\d{1,6})([dhms])$/.exec(text);
  if (!m) throw new UsageError(`--expires-in must be a number and d, h, m or s (e.g. 30d), got "${text}"`);
  const n = Number(m[1]);
  const ms = n * { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000 }[m[2] as 'd' | 'h' | 'm' | 's'];
  if (ms <= 0) throw new UsageError('--expires-in must be positive');
  return ms;
}

export async function writerFrom(ctx: Context): Promise<WriterOptions> {
  const expires = str(ctx.values, 'expires-in');
  return { store: await storeFrom(ctx), trust: trustFrom(ctx), keys: keysFrom(ctx), actor: actorFrom(ctx), lifetimeMs: expires ? durationMs(expires) : DEFAULT_INDEX_LIFETIME_MS };
}

export function channelFrom(ctx: Context): string {
  const channel = str(ctx.values, 'channel') ?? DEFAULT_CHANNEL;
  if (!GRAMMAR.channel.test(channel)) throw new UsageError(`--channel must be lower-case letters, digits, . _ - (at most 64), got "${channel}"`);
  return channel;
}

/** A required positional argument. */
export function positional(ctx: Context, i: number, what: string): string {
  const v = ctx.positionals[i];
  if (v === undefined) throw new UsageError(`missing ${what}`);
  return v;
}

export function short(digest: string | null | undefined): string {
  return digest ? digest.slice(0, 19) : '(none)';
}

export function json(io: Io, value: unknown): void {
  io.out(`${JSON.stringify(value, null, 2)}\n`);
}
