/**
 * The registry operations as a publisher calls them (the CLI and the
 * library): each resolves what the user named (a digest, a prefix, a bundle
 * id, or the channel's canary / last known good by default) against the
 * current state, and commits one operation through commitOp.
 */
import { registryError } from './errors.js';
import type { StoredBundle } from './bundle-blobs.js';
import { DEFAULT_CHANNEL, GRAMMAR, has, own, type RegistryState, type RevokeSeverity } from './model.js';
import { commitOp, type OpOutcome, type WriterOptions } from './writer.js';

/** Resolve a bundle reference: a digest, a unique digest prefix (6+ hex), or a bundle id. */
export function resolveRef(state: RegistryState, ref: string): string {
  if (GRAMMAR.digest.test(ref) && has(state.bundles, ref)) return ref;
  const hex = ref.startsWith('sha256:') ? ref.slice(7) : ref;
  const matches = GRAMMAR.bundleId.test(ref)
    ? Object.keys(state.bundles).filter((d) => state.bundles[d]?.bundle_id === ref)
    : /^[0-9a-f]{6,64}$/.test(hex) ? Object.keys(state.bundles).filter((d) => d.startsWith(`sha256:${hex}`)) : [];
  if (matches.length === 1) return matches[0] as string;
  if (matches.length > 1) throw registryError('RC7114', { file: '', message: `${ref} matches ${matches.length} bundles: ${matches.map((m) => m.slice(0, 19)).join(', ')}` });
  throw registryError('RC7101', { file: '', message: `${ref} names no bundle in the registry${/^[0-9a-f]{1,5}$/.test(hex) ? ' (give at least 6 hex digits)' : ''}` });
}

function channelState(state: RegistryState, channel: string) {
  const ch = own(state.channels, channel);
  if (!ch) throw registryError('RC7112', { file: '', message: `channel ${channel} does not exist (nothing was ever published to it)` });
  return ch;
}

export async function publish(w: WriterOptions, bundleDir: string, channel = DEFAULT_CHANNEL): Promise<OpOutcome & { stored: StoredBundle }> {
  await w.store.init();
  // Loaded here: the bundle reader pulls in the manifest schema, which no other operation needs.
  const { storeBundle } = await import('./bundle-blobs.js');
  const stored = await storeBundle(w.store, bundleDir, w.keys);
  const { manifest } = stored;
  const outcome = await commitOp(w, 'publish', () => ({
    op: 'publish', channel, digest: stored.digest, bundle_id: manifest.bundle_id, version: manifest.revision.version, rev_seq: manifest.revision.seq, signature: stored.signature,
  }));
  return { ...outcome, stored };
}

export function startCanary(w: WriterOptions, o: { channel?: string; ref: string; bps: number; salt?: string }): Promise<OpOutcome> {
  return commitOp(w, 'canary', (s, seq) => ({ op: 'canary', channel: o.channel ?? DEFAULT_CHANNEL, digest: resolveRef(s, o.ref), bps: o.bps, salt: o.salt ?? `r${seq}` }));
}

/** The running canary's digest, or the resolved `ref` when one is given. */
function canaryRef(s: RegistryState, channel: string, ref?: string): string {
  if (ref !== undefined) return resolveRef(s, ref);
  const ch = channelState(s, channel);
  if (!ch.canary) throw registryError('RC7108', { file: '', message: `channel ${channel} runs no canary` });
  return ch.canary.digest;
}

export function ramp(w: WriterOptions, o: { channel?: string; ref?: string; bps: number }): Promise<OpOutcome> {
  const channel = o.channel ?? DEFAULT_CHANNEL;
  return commitOp(w, 'ramp', (s) => ({ op: 'ramp', channel, digest: canaryRef(s, channel, o.ref), bps: o.bps }));
}

export function abort(w: WriterOptions, o: { channel?: string; ref?: string } = {}): Promise<OpOutcome> {
  const channel = o.channel ?? DEFAULT_CHANNEL;
  return commitOp(w, 'abort', (s) => ({ op: 'abort', channel, digest: canaryRef(s, channel, o.ref) }));
}

export function promote(w: WriterOptions, o: { channel?: string; ref?: string } = {}): Promise<OpOutcome> {
  const channel = o.channel ?? DEFAULT_CHANNEL;
  return commitOp(w, 'promote', (s) => ({ op: 'promote', channel, digest: canaryRef(s, channel, o.ref) }));
}

export function rollback(w: WriterOptions, o: { channel?: string; ref?: string } = {}): Promise<OpOutcome> {
  const channel = o.channel ?? DEFAULT_CHANNEL;
  return commitOp(w, 'rollback', (s) => {
    if (o.ref !== undefined) return { op: 'rollback', channel, digest: resolveRef(s, o.ref) };
    const good = channelState(s, channel).last_good;
    if (good === null) throw registryError('RC7109', { file: '', message: `channel ${channel} has no last known good bundle to roll back to` });
    return { op: 'rollback', channel, digest: good };
  });
}

export function deprecate(w: WriterOptions, o: { channel?: string; ref: string }): Promise<OpOutcome> {
  return commitOp(w, 'deprecate', (s) => ({ op: 'deprecate', channel: o.channel ?? DEFAULT_CHANNEL, digest: resolveRef(s, o.ref) }));
}

/** Revoke a bundle of the registry, or denylist any full digest before it is ever published. */
export function revoke(w: WriterOptions, o: { ref: string; severity: RevokeSeverity; reason: string }): Promise<OpOutcome> {
  return commitOp(w, 'revoke', (s) => ({
    op: 'revoke', digest: GRAMMAR.digest.test(o.ref) ? o.ref : resolveRef(s, o.ref), severity: o.severity, reason: o.reason,
  }));
}
