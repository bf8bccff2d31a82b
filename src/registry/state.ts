/**
 * The registry state machine (pure): (state, op, seq) → state | refusal.
 *
 * Per bundle digest within a channel: draft → canary → promoted → deprecated;
 * any → revoked (terminal, denylisted everywhere).
 * 1. publish adds a draft; its semver revision must exceed every revision the
 *    channel has seen and its revision seq may not go backwards.
 * 2. canary starts the channel's one canary (size in basis points, salt fixed
 *    now); ramp only grows it; abort returns it to draft.
 * 3. promote supersedes the promoted bundle (→ deprecated, last known good);
 *    rollback promotes an earlier good bundle the same way.
 * 4. revoke denylists a digest; in each channel it held the canary or the
 *    promoted bundle, that role is withdrawn and the last known good bundle
 *    restored — or nothing, and the channel fails closed.
 * 5. refresh changes nothing: its index re-signs the state with a new expiry.
 * 6. After every step `last_good` is re-derived from the channel's history:
 *    the latest promoted digest that is not revoked and not promoted now.
 * The same function validates an operation read from an untrusted index, so a
 * replayed index must follow from its operation exactly (chain.ts).
 */
// The two functions only: the whole of semver costs a CLI start-up three times as much.
import semverGt from 'semver/functions/gt.js';
import semverValid from 'semver/functions/valid.js';
import { diag, type Diagnostic } from '../diagnostics/diagnostic.js';
import {
  GRAMMAR, MAX_BPS, has, own,
  type BundleState, type ChannelBundle, type ChannelState, type Op, type RegistryState,
} from './model.js';

export type Transition = { ok: true; state: RegistryState } | { ok: false; diagnostic: Diagnostic };

type Step = (s: RegistryState, op: never, seq: number) => Diagnostic | null;

const STEPS: Record<Op['op'], Step> = {
  publish: publishStep as Step,
  canary: canaryStep as Step,
  ramp: rampStep as Step,
  abort: abortStep as Step,
  promote: promoteStep as Step,
  rollback: rollbackStep as Step,
  deprecate: deprecateStep as Step,
  revoke: revokeStep as Step,
  // Nothing changes: the new index only carries a new `expires`.
  refresh: () => null,
};

export function transition(state: RegistryState, op: Op, seq: number): Transition {
  const invalid = checkArgs(op);
  if (invalid) return { ok: false, diagnostic: invalid };
  const next = structuredClone(state);
  const refused = STEPS[op.op](next, op as never, seq);
  if (refused) return { ok: false, diagnostic: refused };
  for (const ch of Object.values(next.channels)) ch.last_good = lastGoodOf(ch, next);
  return { ok: true, state: next };
}

/** Display form of a digest: `sha256:` and 12 hex digits. */
export function shortDigest(digest: string): string {
  return digest.slice(0, 19);
}

function refuse(code: string, message: string, hint?: string): Diagnostic {
  return diag(code, { file: '', message, ...(hint ? { hint } : {}) });
}

function checkArgs(op: Op): Diagnostic | null {
  const bad = (what: string): Diagnostic => refuse('RC7111', `${op.op}: ${what}`);
  if (op.op === 'refresh') return null;
  if (!GRAMMAR.digest.test(op.digest)) return bad(`digest ${JSON.stringify(op.digest)} is not sha256: and 64 hex digits`);
  if ('channel' in op && !GRAMMAR.channel.test(op.channel)) return bad(`channel name ${JSON.stringify(op.channel)} must be lower-case letters, digits, . _ - (at most 64)`);
  switch (op.op) {
    case 'publish':
      if (!GRAMMAR.bundleId.test(op.bundle_id)) return bad(`bundle id ${JSON.stringify(op.bundle_id)} is not b- and 16 hex digits`);
      if (semverValid(op.version) !== op.version) return bad(`revision ${JSON.stringify(op.version)} is not a semver version`);
      if (!Number.isSafeInteger(op.rev_seq) || op.rev_seq < 0) return bad('revision seq must be a non-negative integer');
      if (!GRAMMAR.digest.test(op.signature)) return bad('signature must be the digest of its envelope blob');
      return null;
    case 'canary':
      if (!GRAMMAR.salt.test(op.salt)) return bad('salt must be 1–64 printable ASCII characters without spaces');
      return checkBps(op.bps, bad);
    case 'ramp':
      return checkBps(op.bps, bad);
    case 'revoke':
      if (op.severity !== 'drain' && op.severity !== 'halt') return bad(`severity must be drain or halt, got ${JSON.stringify(op.severity)}`);
      if (op.reason.trim() === '' || op.reason.length > 500) return bad('reason must be 1–500 characters');
      return null;
    default:
      return null;
  }
}

function checkBps(bps: number, bad: (what: string) => Diagnostic): Diagnostic | null {
  return Number.isSafeInteger(bps) && bps >= 1 && bps <= MAX_BPS ? null : bad(`canary size must be 1–${MAX_BPS} basis points, got ${bps}`);
}

function channelOf(s: RegistryState, name: string): ChannelState | Diagnostic {
  return own(s.channels, name) ?? refuse('RC7112', `channel ${name} does not exist (nothing was ever published to it)`);
}

/** Channel `name` and its entry for `digest`, refused when either is absent or the bundle is revoked. */
function entryOf(s: RegistryState, name: string, digest: string): { ch: ChannelState; entry: ChannelBundle } | Diagnostic {
  const ch = channelOf(s, name);
  if ('code' in ch) return ch;
  if (has(s.denylist, digest)) return refuse('RC7104', `${shortDigest(digest)} is revoked`);
  const entry = own(ch.bundles, digest);
  return entry ? { ch, entry } : refuse('RC7101', `${shortDigest(digest)} is not in channel ${name}`);
}

function move(entry: ChannelBundle, state: BundleState, seq: number): void {
  entry.state = state;
  entry.rev += 1;
  entry.since = seq;
}

function wrongState(entry: ChannelBundle, digest: string, verb: string, hint?: string): Diagnostic {
  return refuse('RC7105', `cannot ${verb} ${shortDigest(digest)}: it is ${entry.state}`, hint);
}

function publishStep(s: RegistryState, op: Extract<Op, { op: 'publish' }>, seq: number): Diagnostic | null {
  if (has(s.denylist, op.digest)) return refuse('RC7104', `${shortDigest(op.digest)} is revoked and can never be published again`);
  const known = own(s.bundles, op.digest);
  if (known && (known.bundle_id !== op.bundle_id || known.version !== op.version || known.rev_seq !== op.rev_seq)) {
    return refuse('RC7111', `publish: ${shortDigest(op.digest)} is already recorded with another bundle id or revision`);
  }
  const ch = own(s.channels, op.channel) ?? { bundles: {}, promoted: null, canary: null, last_good: null, history: [], version: null, rev_seq: 0 };
  if (has(ch.bundles, op.digest)) return refuse('RC7102', `${shortDigest(op.digest)} is already published in channel ${op.channel}`);
  if (ch.version !== null && !semverGt(op.version, ch.version)) {
    return refuse('RC7103', `revision ${op.version} does not increase: channel ${op.channel} has seen ${ch.version}`);
  }
  if (op.rev_seq < ch.rev_seq) return refuse('RC7113', `revision seq ${op.rev_seq} is below ${ch.rev_seq}, already published to channel ${op.channel}`);
  if (!known) s.bundles[op.digest] = { bundle_id: op.bundle_id, version: op.version, rev_seq: op.rev_seq, signature: op.signature, published_seq: seq };
  ch.bundles[op.digest] = { state: 'draft', rev: 1, since: seq };
  ch.version = op.version;
  ch.rev_seq = op.rev_seq;
  s.channels[op.channel] = ch;
  return null;
}

function canaryStep(s: RegistryState, op: Extract<Op, { op: 'canary' }>, seq: number): Diagnostic | null {
  const found = entryOf(s, op.channel, op.digest);
  if ('code' in found) return found;
  const { ch, entry } = found;
  if (ch.canary) return refuse('RC7106', `channel ${op.channel} already runs a canary: ${shortDigest(ch.canary.digest)} at ${ch.canary.bps} bps`);
  if (entry.state !== 'draft') return wrongState(entry, op.digest, 'start a canary of', 'a canary starts from a draft');
  move(entry, 'canary', seq);
  ch.canary = { digest: op.digest, bps: op.bps, salt: op.salt, since: seq };
  return null;
}

function runningCanary(s: RegistryState, name: string, digest: string): ChannelState | Diagnostic {
  const ch = channelOf(s, name);
  if ('code' in ch) return ch;
  if (!ch.canary) return refuse('RC7108', `channel ${name} runs no canary`);
  if (ch.canary.digest !== digest) return refuse('RC7105', `the canary of channel ${name} is ${shortDigest(ch.canary.digest)}, not ${shortDigest(digest)}`);
  return ch;
}

function rampStep(s: RegistryState, op: Extract<Op, { op: 'ramp' }>, seq: number): Diagnostic | null {
  const ch = runningCanary(s, op.channel, op.digest);
  if ('code' in ch) return ch;
  const canary = ch.canary as NonNullable<ChannelState['canary']>;
  if (op.bps <= canary.bps) return refuse('RC7107', `canary ${shortDigest(op.digest)} is at ${canary.bps} bps; a ramp to ${op.bps} would shrink it`);
  canary.bps = op.bps;
  move(ch.bundles[op.digest] as ChannelBundle, 'canary', seq);
  return null;
}

function abortStep(s: RegistryState, op: Extract<Op, { op: 'abort' }>, seq: number): Diagnostic | null {
  const ch = runningCanary(s, op.channel, op.digest);
  if ('code' in ch) return ch;
  move(ch.bundles[op.digest] as ChannelBundle, 'draft', seq);
  ch.canary = null;
  return null;
}

/** Make `digest` the channel's promoted bundle; the previous one becomes deprecated. */
function promoteTo(ch: ChannelState, digest: string, seq: number): void {
  if (ch.promoted !== null) move(ch.bundles[ch.promoted] as ChannelBundle, 'deprecated', seq);
  move(ch.bundles[digest] as ChannelBundle, 'promoted', seq);
  ch.promoted = digest;
  ch.history.push(digest);
}

function promoteStep(s: RegistryState, op: Extract<Op, { op: 'promote' }>, seq: number): Diagnostic | null {
  const found = entryOf(s, op.channel, op.digest);
  if ('code' in found) return found;
  const { ch, entry } = found;
  if (entry.state !== 'canary') return wrongState(entry, op.digest, 'promote', 'only the running canary is promoted: start one with rulec registry canary');
  ch.canary = null;
  promoteTo(ch, op.digest, seq);
  return null;
}

function rollbackStep(s: RegistryState, op: Extract<Op, { op: 'rollback' }>, seq: number): Diagnostic | null {
  const found = entryOf(s, op.channel, op.digest);
  if ('code' in found) return found;
  const { ch, entry } = found;
  if (entry.state !== 'deprecated' || !ch.history.includes(op.digest)) {
    return refuse('RC7109', `${shortDigest(op.digest)} is ${entry.state}, not an earlier promoted bundle of channel ${op.channel}`);
  }
  promoteTo(ch, op.digest, seq);
  return null;
}

function deprecateStep(s: RegistryState, op: Extract<Op, { op: 'deprecate' }>, seq: number): Diagnostic | null {
  const found = entryOf(s, op.channel, op.digest);
  if ('code' in found) return found;
  const { ch, entry } = found;
  if (entry.state !== 'draft') {
    return wrongState(entry, op.digest, 'deprecate', 'deprecate retires a draft; the promoted bundle is replaced by promote or rollback, a canary is stopped by abort');
  }
  move(entry, 'deprecated', seq);
  return null;
}

function revokeStep(s: RegistryState, op: Extract<Op, { op: 'revoke' }>, seq: number): Diagnostic | null {
  const listed = own(s.denylist, op.digest);
  if (listed) {
    if (listed.severity === 'drain' && op.severity === 'halt') {
      s.denylist[op.digest] = { severity: 'halt', reason: op.reason, seq };
      return null;
    }
    return refuse('RC7110', `${shortDigest(op.digest)} is already revoked (${listed.severity}, index seq ${listed.seq})`);
  }
  s.denylist[op.digest] = { severity: op.severity, reason: op.reason, seq };
  for (const ch of Object.values(s.channels)) {
    const entry = own(ch.bundles, op.digest);
    if (!entry) continue;
    move(entry, 'revoked', seq);
    if (ch.canary?.digest === op.digest) ch.canary = null;
    if (ch.promoted === op.digest) {
      ch.promoted = null;
      const restore = lastGoodOf(ch, s);
      if (restore !== null) promoteTo(ch, restore, seq);
    }
  }
  return null;
}

/** The latest digest in the channel's history that is not revoked and not promoted now. */
export function lastGoodOf(ch: ChannelState, s: RegistryState): string | null {
  for (let i = ch.history.length - 1; i >= 0; i--) {
    const d = ch.history[i] as string;
    if (d !== ch.promoted && !has(s.denylist, d)) return d;
  }
  return null;
}
