/**
 * `rulec registry <subcommand>`: the bundle registry (publish, canary,
 * promote, revoke, admit, …). Each subcommand's module is loaded only when it
 * runs, so a promote never loads the bundle reader and its schema validator.
 */
import { UsageError } from '../../../util/errors.js';
import { EXIT, type Io } from '../../io.js';
import { runSubcommand, type Subcommand } from './common.js';

const transitions = (name: keyof typeof import('./transitions.js')) => async (): Promise<Subcommand> => (await import('./transitions.js'))[name] as Subcommand;

const SUBCOMMANDS: Record<string, { summary: string; load: () => Promise<Subcommand> }> = {
  publish: { summary: 'sign a built bundle and add it to a channel as a draft', load: transitions('PUBLISH') },
  canary: { summary: 'start the channel\'s canary: a draft, to N basis points of subjects', load: transitions('CANARY') },
  ramp: { summary: 'grow the running canary (only up)', load: transitions('RAMP') },
  promote: { summary: 'promote the running canary; the promoted bundle becomes last known good', load: transitions('PROMOTE') },
  abort: { summary: 'stop the running canary: back to draft, the promoted bundle stays', load: transitions('ABORT') },
  rollback: { summary: 'promote an earlier good bundle again (default: last known good)', load: transitions('ROLLBACK') },
  deprecate: { summary: 'retire a draft that will not ship', load: transitions('DEPRECATE') },
  revoke: { summary: 'denylist a bundle everywhere; restore last known good, or fail closed', load: transitions('REVOKE') },
  refresh: { summary: 're-sign the latest index with a new expiry (an idle registry must, or it expires)', load: transitions('REFRESH') },
  mirror: { summary: 'copy the signed index and served bundles to an OCI registry (oci://HOST/REPO)', load: async () => (await import('./mirror.js')).MIRROR },
  admit: { summary: 'pin a run to the bundle its subject gets; print its digest and path', load: async () => (await import('./admit.js')).ADMIT },
  impact: { summary: 'list the pinned runs a revocation of a bundle touches', load: async () => (await import('./admit.js')).IMPACT },
  bucket: { summary: 'print a subject\'s bucket and whether the current canary includes it', load: async () => (await import('./bucket.js')).BUCKET },
  status: { summary: 'show each channel: promoted, canary, last known good, bundles; the denylist', load: async () => (await import('./status.js')).STATUS },
  log: { summary: 'print the hash-chained audit log', load: async () => (await import('./log.js')).LOG },
  verify: { summary: 'check every index, blob, signature and audit line; repair crash leftovers', load: async () => (await import('./verify.js')).VERIFY },
};

export const REGISTRY_HELP = `Usage: rulec registry <subcommand> [options]

Publish bundles to a signed registry, roll them out through a canary, promote,
roll back and revoke them, and admit agent runs against a pinned snapshot.
The default store is the directory .rulec/registry (--store git+URL: a git
remote; oci://HOST/REPO: a mirror, read only); every index is signed (rulec
keys generate) and verified against a trust file.

Subcommands:
${Object.entries(SUBCOMMANDS).map(([n, s]) => `  ${n.padEnd(10)} ${s.summary}`).join('\n')}

Run rulec registry <subcommand> --help for its options.
Exit codes: 0 done, 1 refused (a coded RC7xxx diagnostic), 2 usage or configuration.`;

export async function registryCommand(argv: string[], io: Io): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') return io.out(`${REGISTRY_HELP}\n`), EXIT.clean;
  const entry = Object.hasOwn(SUBCOMMANDS, name) ? SUBCOMMANDS[name] : undefined;
  if (!entry) throw new UsageError(`unknown subcommand "${name}"; run rulec registry --help`);
  return runSubcommand(name, await entry.load(), rest, io);
}
