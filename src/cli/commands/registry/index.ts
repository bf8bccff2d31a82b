/** `rulec registry <subcommand>`: the bundle registry (publish, canary, promote, revoke, admit, …). */
import { UsageError } from '../../../diagnostics/errors.js';
import { EXIT, type Io } from '../../io.js';
import { ADMIT, IMPACT } from './admit.js';
import { BUCKET } from './bucket.js';
import { runSubcommand, type Subcommand } from './common.js';
import { LOG } from './log.js';
import { STATUS } from './status.js';
import { ABORT, CANARY, DEPRECATE, PROMOTE, PUBLISH, RAMP, REVOKE, ROLLBACK } from './transitions.js';
import { VERIFY } from './verify.js';

const SUBCOMMANDS: Record<string, Subcommand> = {
  publish: PUBLISH, canary: CANARY, ramp: RAMP, promote: PROMOTE, abort: ABORT, rollback: ROLLBACK, deprecate: DEPRECATE, revoke: REVOKE,
  admit: ADMIT, impact: IMPACT, bucket: BUCKET, status: STATUS, log: LOG, verify: VERIFY,
};

export const REGISTRY_HELP = `Usage: rulec registry <subcommand> [options]

Publish bundles to a signed registry, roll them out through a canary, promote,
roll back and revoke them, and admit agent runs against a pinned snapshot.
The default store is the directory .rulec/registry; every index is signed
(rulec keys generate) and verified against a trust file.

Subcommands:
${Object.entries(SUBCOMMANDS).map(([n, s]) => `  ${n.padEnd(10)} ${s.summary}`).join('\n')}

Run rulec registry <subcommand> --help for its options.
Exit codes: 0 done, 1 refused (a coded RC7xxx diagnostic), 2 usage or configuration.`;

export async function registryCommand(argv: string[], io: Io): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') return io.out(`${REGISTRY_HELP}\n`), EXIT.clean;
  const sub = Object.hasOwn(SUBCOMMANDS, name) ? SUBCOMMANDS[name] : undefined;
  if (!sub) throw new UsageError(`unknown subcommand "${name}"; run rulec registry --help`);
  return runSubcommand(name, sub, rest, io);
}
