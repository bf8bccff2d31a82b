/** `rulec registry admit` and `rulec registry impact`: the admitter's side. */
import { relative, resolve } from 'node:path';
import { UsageError } from '../../../util/errors.js';
import { admit, checkPin, impactOf, verifiedLatest, type AdmitterOptions, type PinStatus } from '../../../registry/admit.js';
import { GRAMMAR } from '../../../registry/model.js';
import { resolveRef } from '../../../registry/ops.js';
import { isOciSpec } from '../../../registry/stores/open-store.js';
import { str } from '../../args.js';
import { EXIT } from '../../io.js';
import { CHANNEL_HELP, channelFrom, DEFAULT_STATE, json, notes, positional, short, STORE_HELP, STORE_OPTIONS, storeFrom, trustFrom, type Context, type Subcommand } from './common.js';

const ADMITTER_OPTIONS = { ...STORE_OPTIONS, from: { type: 'string' }, state: { type: 'string' }, 'require-fresh': { type: 'boolean' } } as const;
const ADMITTER_HELP = `${STORE_HELP}
  --from oci://HOST/REPO
                     read from an OCI registry mirror instead of --store
                     (oci+http:// only on this machine); implies --require-fresh
  --state DIR        this admitter's pins, checkpoint and bundles (default: ${DEFAULT_STATE})
  --require-fresh    refuse an index whose signed expiry has passed (always on
                     for a mirror: its freshness is all that stops a freeze)`;

async function admitterFrom(ctx: Context): Promise<AdmitterOptions> {
  const from = str(ctx.values, 'from');
  if (from !== undefined && str(ctx.values, 'store') !== undefined) throw new UsageError('give --from (a mirror) or --store, not both');
  const spec = from ?? str(ctx.values, 'store');
  const store = await storeFrom(ctx, spec);
  const mirror = spec !== undefined && isOciSpec(spec);
  return { store, trust: trustFrom(ctx), stateDir: resolve(ctx.io.cwd, str(ctx.values, 'state') ?? DEFAULT_STATE), requireFresh: ctx.values['require-fresh'] === true || mirror };
}

export const ADMIT: Subcommand = {
  options: { ...ADMITTER_OPTIONS, subject: { type: 'string' }, 'run-id': { type: 'string' }, channel: { type: 'string' }, check: { type: 'boolean' } },
  maxPositionals: 0,
  help: `Usage: rulec registry admit [--subject S] [--run-id R] [--from oci://HOST/REPO] [options]
       rulec registry admit --check --run-id R [options]

Verify the registry's signed index (from the last one this admitter trusted:
no rollback, no equivocation), resolve the channel for the subject (the canary
when its bucket is inside it, else the promoted bundle), fetch and verify the
bundle, and pin the run to it. A pinned run never re-resolves: admitting the
same run id again returns its pin — unless its bundle was revoked since.
Without --subject the run gets the promoted bundle.

With --check, answer a running run's check instead: exit 0 to continue (with
a warning when draining), 1 when its bundle was revoked with halt.

Options:
  --subject S        who the run is for, e.g. repo:acme/api or user:alice
  --run-id R         the run's id (default: a new random id)
  --check            check a pinned run instead of admitting one
${CHANNEL_HELP}
${ADMITTER_HELP}`,
  async run(ctx) {
    const o = await admitterFrom(ctx);
    const run = str(ctx.values, 'run-id');
    const subject = str(ctx.values, 'subject');
    if (run !== undefined && !GRAMMAR.runId.test(run)) throw new UsageError(`--run-id must be letters, digits and . _ : - (at most 128), got "${run}"`);
    if (ctx.values.check) {
      if (run === undefined) throw new UsageError('--check needs --run-id');
      const c = await checkPin(o, run);
      if (ctx.format === 'json') json(ctx.io, { ok: true, status: c.status, pin: c.pin, diagnostics: c.diagnostics });
      else ctx.io.out(`${notes(c.diagnostics)}run ${run}: ${c.status === 'ok' ? 'continue' : 'draining: finish, do not resume'} (${short(c.pin.digest)})\n`);
      return EXIT.clean;
    }
    const a = await admit(o, { ...(subject !== undefined ? { subject } : {}), ...(run !== undefined ? { run } : {}), channel: channelFrom(ctx) });
    if (ctx.format === 'json') {
      json(ctx.io, { ok: true, resumed: a.resumed, digest: a.pin.digest, path: a.dir, pin: a.pin });
      return EXIT.clean;
    }
    const p = a.pin;
    const why = p.canary ? `canary, bucket ${p.bucket}` : p.bucket !== null ? `promoted, bucket ${p.bucket} outside the canary` : 'promoted';
    ctx.io.out([
      `${a.resumed ? 'resumed' : 'admitted'} run ${p.run}${p.subject !== null ? ` for ${p.subject}` : ''}`,
      `  digest   ${p.digest}`,
      `  bundle   ${p.bundle}`,
      `  path     ${relative(ctx.io.cwd, a.dir) || '.'}`,
      `  channel  ${p.channel} (${why}), index seq ${p.index_seq}`,
    ].join('\n') + '\n');
    return EXIT.clean;
  },
};

const STATUS_TEXT: Record<PinStatus, string> = { ok: 'running', draining: 'draining (finishes, no resume)', halted: 'halted at its next check' };

export const IMPACT: Subcommand = {
  options: { ...ADMITTER_OPTIONS },
  maxPositionals: 1,
  help: `Usage: rulec registry impact BUNDLE [options]

List this admitter's pinned runs on BUNDLE (a digest, prefix or bundle id) and
what its revocation does to each: drain lets them finish, halt stops them.

Options:
${ADMITTER_HELP}`,
  async run(ctx) {
    const o = await admitterFrom(ctx);
    const latest = await verifiedLatest(o);
    const digest = resolveRef(latest.doc.state, positional(ctx, 0, 'BUNDLE (a digest, prefix or bundle id)'));
    const { pins, revoked } = await impactOf(o, digest);
    if (ctx.format === 'json') {
      json(ctx.io, { ok: true, digest, revoked, pins: pins.map((p) => ({ ...p.pin, status: p.status })) });
      return EXIT.clean;
    }
    const head = `${short(digest)}: ${pins.length} pinned run${pins.length === 1 ? '' : 's'}; ${revoked ? `revoked (${revoked.severity}) at index seq ${revoked.seq}: ${revoked.reason}` : 'not revoked (drain would let them finish; halt would stop them)'}`;
    const rows = pins.map(({ pin, status }) => `  ${pin.run}  ${pin.subject ?? '(no subject)'}  ${pin.channel}  admitted ${pin.admitted_at} at seq ${pin.index_seq}  ${revoked ? STATUS_TEXT[status] : 'running'}`);
    ctx.io.out(`${[head, ...rows].join('\n')}\n`);
    return EXIT.clean;
  },
};
