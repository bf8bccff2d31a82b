/** `rulec registry publish|canary|ramp|promote|abort|rollback|deprecate|revoke|refresh`: the writer operations. */
import { resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { UsageError } from '../../../util/errors.js';
import { MAX_BPS, type ChannelState, type RevokeSeverity } from '../../../registry/model.js';
import * as ops from '../../../registry/ops.js';
import type { OpOutcome, WriterOptions } from '../../../registry/writer.js';
import { str } from '../../args.js';
import { EXIT } from '../../io.js';
import { CHANNEL_HELP, channelFrom, json, notes, positional, short, WRITER_HELP, WRITER_OPTIONS, writerFrom, type Context, type Subcommand } from './common.js';

const CHANNEL_OPTION = { channel: { type: 'string' } } as const;

function bps(ctx: Context): number {
  const raw = str(ctx.values, 'bps');
  const n = Number(raw);
  if (raw === undefined || !/^\d+$/.test(raw) || n < 1 || n > MAX_BPS) throw new UsageError(`--bps must be a whole number of basis points from 1 to ${MAX_BPS} (100 bps = 1%), got ${raw ?? 'nothing'}`);
  return n;
}

const pct = (b: number): string => `${(b / 100).toFixed(b % 100 === 0 ? 0 : 2)}%`;

/** Report a committed operation: one line saying what happened, then the index it committed. */
function done(ctx: Context, w: WriterOptions, outcome: OpOutcome, line: (ch: ChannelState | undefined, label: (d: string | null) => string) => string): number {
  const { doc, digest: indexDigest, by } = outcome.index;
  const channelName = 'channel' in doc.op ? doc.op.channel : null;
  const digest = opDigest(outcome);
  const touched = channelName ? [channelName] : digest === null ? [] : Object.keys(doc.state.channels).filter((n) => doc.state.channels[n]?.bundles[digest]);
  const label = (d: string | null): string => (d === null ? '(none)' : `${short(d)} (${doc.state.bundles[d]?.bundle_id ?? '?'} ${doc.state.bundles[d]?.version ?? ''})`.replace(' )', ')'));
  if (ctx.format === 'json') {
    const channels = Object.fromEntries(touched.map((n) => {
      const c = doc.state.channels[n] as ChannelState;
      return [n, { promoted: c.promoted, canary: c.canary, last_good: c.last_good }];
    }));
    json(ctx.io, { ok: true, op: doc.op, seq: doc.seq, index: indexDigest, at: doc.at, expires: doc.expires, signed_by: by, channels, diagnostics: outcome.diagnostics });
    return EXIT.clean;
  }
  const names = by.map((k) => w.trust.keys.get(k)?.name ?? k.slice(0, 16));
  ctx.io.out(`${notes(outcome.diagnostics)}${line(channelName ? doc.state.channels[channelName] : undefined, label)}\n  index seq ${doc.seq}, signed by ${names.join(', ')}; expires ${doc.expires}\n`);
  return EXIT.clean;
}

/** What a channel transition acts on: `--channel`, and the BUNDLE argument when one is given (default: the op's own). */
function target(ctx: Context): { channel: string; ref?: string } {
  const ref = ctx.positionals[0];
  return { channel: channelFrom(ctx), ...(ref ? { ref } : {}) };
}

/** The bundle digest the committed operation acted on (none for a refresh). */
function opDigest(outcome: OpOutcome): string | null {
  const op = outcome.index.doc.op;
  return 'digest' in op ? op.digest : null;
}

export const PUBLISH: Subcommand = {
  options: { ...WRITER_OPTIONS, ...CHANNEL_OPTION },
  maxPositionals: 1,
  help: `Usage: rulec registry publish [BUNDLE] [options]

Verify a bundle directory written by rulec build (default: the one
bundles/current names), sign its manifest (DSSE, publish role), store it by
digest and add it to the channel as a draft. Its semver revision must be
higher than every revision the channel has seen.

Options:
${WRITER_HELP}
${CHANNEL_HELP}`,
  async run(ctx) {
    const w = await writerFrom(ctx);
    const given = ctx.positionals[0] ?? 'bundles';
    const path = resolve(ctx.io.cwd, given);
    const { currentBundleDir } = await import('../../../bundle/current-pointer.js');
    const dir = existsSync(resolve(path, 'manifest.json')) ? path : currentBundleDir(path);
    if (dir === null) throw new UsageError(`${given} is neither a bundle directory nor a bundles directory with a current pointer`);
    const outcome = await ops.publish(w, dir, channelFrom(ctx));
    return done(ctx, w, outcome, (_ch, label) => `published ${label(outcome.stored.digest)} to ${channelFrom(ctx)} as draft`);
  },
};

export const CANARY: Subcommand = {
  options: { ...WRITER_OPTIONS, ...CHANNEL_OPTION, bps: { type: 'string' }, salt: { type: 'string' } },
  maxPositionals: 1,
  help: `Usage: rulec registry canary BUNDLE --bps N [options]

Start a canary of a draft bundle (a digest, a unique digest prefix or a bundle
id): subjects whose bucket is below N basis points (100 = 1%) are admitted to
it. The salt is fixed now, so a later ramp only adds subjects. One canary at a
time per channel.

Options:
  --bps N            canary size in basis points, 1–${MAX_BPS}
  --salt S           cohort salt (default: r<index seq>)
${WRITER_HELP}
${CHANNEL_HELP}`,
  async run(ctx) {
    const w = await writerFrom(ctx);
    const salt = str(ctx.values, 'salt');
    const outcome = await ops.startCanary(w, { channel: channelFrom(ctx), ref: positional(ctx, 0, 'BUNDLE (a digest, prefix or bundle id)'), bps: bps(ctx), ...(salt ? { salt } : {}) });
    return done(ctx, w, outcome, (ch, label) => `canary ${label(ch?.canary?.digest ?? null)} in ${channelFrom(ctx)} at ${ch?.canary?.bps} bps (${pct(ch?.canary?.bps ?? 0)}), salt ${ch?.canary?.salt}`);
  },
};

export const RAMP: Subcommand = {
  options: { ...WRITER_OPTIONS, ...CHANNEL_OPTION, bps: { type: 'string' } },
  maxPositionals: 1,
  help: `Usage: rulec registry ramp [BUNDLE] --bps N [options]

Grow the channel's running canary to N basis points. A ramp only goes up:
subjects already in the canary stay in it.

Options:
  --bps N            new canary size in basis points, above the current one
${WRITER_HELP}
${CHANNEL_HELP}`,
  async run(ctx) {
    const w = await writerFrom(ctx);
    const outcome = await ops.ramp(w, { ...target(ctx), bps: bps(ctx) });
    return done(ctx, w, outcome, (ch, label) => `ramped canary ${label(ch?.canary?.digest ?? null)} in ${channelFrom(ctx)} to ${ch?.canary?.bps} bps (${pct(ch?.canary?.bps ?? 0)})`);
  },
};

export const PROMOTE: Subcommand = {
  options: { ...WRITER_OPTIONS, ...CHANNEL_OPTION },
  maxPositionals: 1,
  help: `Usage: rulec registry promote [BUNDLE] [options]

Promote the channel's canary (default: the running one) to every subject. The
bundle promoted until now is deprecated and recorded as last known good.

Options:
${WRITER_HELP}
${CHANNEL_HELP}`,
  async run(ctx) {
    const w = await writerFrom(ctx);
    const outcome = await ops.promote(w, target(ctx));
    return done(ctx, w, outcome, (ch, label) => `promoted ${label(ch?.promoted ?? null)} in ${channelFrom(ctx)}; last known good ${label(ch?.last_good ?? null)}`);
  },
};

export const ABORT: Subcommand = {
  options: { ...WRITER_OPTIONS, ...CHANNEL_OPTION },
  maxPositionals: 1,
  help: `Usage: rulec registry abort [BUNDLE] [options]

Stop the channel's running canary. Its bundle returns to draft; the promoted
bundle keeps serving every subject.

Options:
${WRITER_HELP}
${CHANNEL_HELP}`,
  async run(ctx) {
    const w = await writerFrom(ctx);
    const outcome = await ops.abort(w, target(ctx));
    return done(ctx, w, outcome, (ch, label) => `aborted the canary of ${channelFrom(ctx)} (${label(opDigest(outcome))} is a draft again); serving ${label(ch?.promoted ?? null)}`);
  },
};

export const ROLLBACK: Subcommand = {
  options: { ...WRITER_OPTIONS, ...CHANNEL_OPTION },
  maxPositionals: 1,
  help: `Usage: rulec registry rollback [BUNDLE] [options]

Promote an earlier promoted, unrevoked bundle again (default: the channel's
last known good), under a new index sequence number. The bundle promoted
until now is deprecated.

Options:
${WRITER_HELP}
${CHANNEL_HELP}`,
  async run(ctx) {
    const w = await writerFrom(ctx);
    const outcome = await ops.rollback(w, target(ctx));
    return done(ctx, w, outcome, (ch, label) => `rolled ${channelFrom(ctx)} back to ${label(ch?.promoted ?? null)}; last known good ${label(ch?.last_good ?? null)}`);
  },
};

export const DEPRECATE: Subcommand = {
  options: { ...WRITER_OPTIONS, ...CHANNEL_OPTION },
  maxPositionals: 1,
  help: `Usage: rulec registry deprecate BUNDLE [options]

Retire a draft bundle that will not ship. (A promoted bundle is deprecated by
the next promote or rollback; a canary is stopped with abort.)

Options:
${WRITER_HELP}
${CHANNEL_HELP}`,
  async run(ctx) {
    const w = await writerFrom(ctx);
    const outcome = await ops.deprecate(w, { channel: channelFrom(ctx), ref: positional(ctx, 0, 'BUNDLE (a digest, prefix or bundle id)') });
    return done(ctx, w, outcome, (_ch, label) => `deprecated ${label(opDigest(outcome))} in ${channelFrom(ctx)}`);
  },
};

export const REVOKE: Subcommand = {
  options: { ...WRITER_OPTIONS, severity: { type: 'string' }, reason: { type: 'string' } },
  maxPositionals: 1,
  help: `Usage: rulec registry revoke BUNDLE --severity drain|halt --reason TEXT [options]

Revoke a bundle (terminal): its digest goes on the denylist, no channel serves
it again, and every channel that promoted it restores its last known good
bundle — or serves nothing (admissions fail closed) when it has none.
Runs pinned to it: drain lets them finish but refuses a resume or retry;
halt stops them at their next check. A drain can later be raised to halt.

Options:
  --severity S       drain or halt
  --reason TEXT      why (recorded in the index and the audit log)
${WRITER_HELP}`,
  async run(ctx) {
    const severity = str(ctx.values, 'severity');
    if (severity !== 'drain' && severity !== 'halt') throw new UsageError(`--severity must be drain or halt, got ${severity ?? 'nothing'}`);
    const reason = str(ctx.values, 'reason');
    if (!reason) throw new UsageError('--reason is required: say why the bundle is revoked');
    const w = await writerFrom(ctx);
    const outcome = await ops.revoke(w, { ref: positional(ctx, 0, 'BUNDLE (a digest, prefix or bundle id)'), severity: severity as RevokeSeverity, reason });
    const { doc } = outcome.index;
    return done(ctx, w, outcome, (_ch, label) => {
      const revoked = opDigest(outcome) as string;
      const lines = [`revoked ${label(revoked)} (${severity}): ${reason}`];
      for (const [name, c] of Object.entries(doc.state.channels)) if (c.bundles[revoked]) lines.push(`  ${name} serves ${c.promoted === null ? 'nothing (admissions fail closed)' : label(c.promoted)}`);
      return lines.join('\n');
    });
  },
};

export const REFRESH: Subcommand = {
  options: { ...WRITER_OPTIONS },
  maxPositionals: 0,
  help: `Usage: rulec registry refresh [options]

Re-sign the latest state with a new expiry and change nothing (promote role).
Every index expires (--expires-in, default 30 days), and an admitter reading
a mirror refuses an expired one: a registry with no other operation must be
refreshed before its index expires (run it on a schedule, then mirror).

Options:
${WRITER_HELP}`,
  async run(ctx) {
    const w = await writerFrom(ctx);
    const outcome = await ops.refresh(w);
    return done(ctx, w, outcome, () => `refreshed the index (nothing changed)`);
  },
};
