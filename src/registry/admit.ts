/**
 * Admission: bind a run to one bundle snapshot, for an agent runtime.
 *
 * 1. Verify the store's latest index against this admitter's checkpoint:
 *    never older (RC7401), never a different index at a trusted seq or a
 *    history that bypasses it (RC7402); every step from the checkpoint on is
 *    signed to its role's threshold and follows from its operation; fresh when
 *    freshness is required (RC7403).
 * 2. A run id that is already pinned never re-resolves: its pin is returned,
 *    unless its bundle was revoked since (a resume is refused, RC7407).
 * 3. Resolve the channel for the subject: in the running canary when its
 *    bucket is below the canary size, else the promoted bundle; nothing to
 *    serve fails closed (RC7404).
 * 4. Fetch the bundle, checking every blob and the manifest's signatures.
 * 5. Record the pin (exactly once per run id) and advance the checkpoint.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { diag } from '../diagnostics/diagnostic.js';
import { openBundle, type OpenedBundle } from '../bundle/open-bundle.js';
import { readRegularFile } from '../bundle/read-regular.js';
import { AdmitterState, PIN_SCHEMA_ID, type Pin } from './admitter-state.js';
import { materialiseBundle } from './bundle-blobs.js';
import { GENESIS, pointOf, verifyStep, type ChainPoint, type VerifiedIndex } from './chain.js';
import { bucketOf, inCohort, validSubject } from './cohort.js';
import { RegistryError, registryError } from './errors.js';
import { signedBy } from './sign.js';
import { DEFAULT_CHANNEL, GRAMMAR, own, type DenyEntry } from './model.js';
import type { Store } from './store.js';
import type { TrustPolicy } from './trust.js';

export interface AdmitterOptions {
  store: Store;
  trust: TrustPolicy;
  /** The admitter's own state directory (pins, checkpoint, fetched bundles). */
  stateDir: string;
  /** Refuse an index whose signed `expires` has passed. */
  requireFresh?: boolean;
  now?: () => Date;
}

export interface AdmitRequest {
  subject?: string;
  run?: string;
  channel?: string;
}

export interface Admission {
  pin: Pin;
  /** Absolute path of the pinned bundle directory. */
  dir: string;
  /** True when the run was already pinned and its pin was returned. */
  resumed: boolean;
  index: VerifiedIndex;
}

/** Step 1: the latest index, verified from the checkpoint (or from the first index). */
export async function verifiedLatest(o: AdmitterOptions): Promise<VerifiedIndex> {
  const state = new AdmitterState(o.stateDir);
  const checkpoint = state.readCheckpoint();
  const head = await o.store.latestIndex();
  if (head === null) throw registryError('RC7209', { file: '', message: `no index in ${o.store.location}` });
  let latest: VerifiedIndex | null = checkpoint?.index ?? null;
  if (checkpoint && head.seq < checkpoint.seq) {
    throw registryError('RC7401', { file: `index/${head.seq}`, message: `the registry serves index seq ${head.seq}; this admitter already trusted seq ${checkpoint.seq}` });
  }
  if (checkpoint && head.seq === checkpoint.seq && head.bytes.toString('utf8') !== checkpoint.index.bytes) {
    throw registryError('RC7402', { file: `index/${head.seq}`, message: `index seq ${head.seq} differs from the index of that seq this admitter trusted` });
  }
  let point: ChainPoint = checkpoint ? pointOf(checkpoint.index) : GENESIS;
  for (let seq = point.seq + 1; seq <= head.seq; seq++) {
    const bytes = seq === head.seq ? head.bytes : await o.store.indexAt(seq);
    if (bytes === null) throw registryError('RC7205', { file: `index/${seq}`, message: `index seq ${seq} is missing` });
    const step = verifyStep(point, bytes, o.trust, `index/${seq}`);
    if (!step.ok) {
      if (checkpoint && seq === checkpoint.seq + 1 && step.diagnostic.code === 'RC7205') {
        throw registryError('RC7402', { file: `index/${seq}`, message: `index seq ${seq} does not follow the index seq ${checkpoint.seq} this admitter trusted: the history was rewritten` });
      }
      throw new RegistryError(step.diagnostic);
    }
    latest = step.index;
    point = pointOf(step.index);
  }
  const index = latest as VerifiedIndex;
  const now = (o.now ?? (() => new Date()))().toISOString();
  if (o.requireFresh && index.doc.expires <= now) {
    throw registryError('RC7403', { file: `index/${index.seq}`, message: `index seq ${index.seq} expired at ${index.doc.expires}` });
  }
  return index;
}

export async function admit(o: AdmitterOptions, req: AdmitRequest = {}): Promise<Admission> {
  if (req.subject !== undefined && !validSubject(req.subject)) throw registryError('RC7111', { file: '', message: 'a subject is 1–1024 characters without NUL' });
  if (req.run !== undefined && !GRAMMAR.runId.test(req.run)) throw registryError('RC7111', { file: '', message: `run id ${JSON.stringify(req.run)} must be letters, digits and . _ : - (at most 128)` });
  const state = new AdmitterState(o.stateDir);
  const index = await verifiedLatest(o);
  const existing = req.run === undefined ? null : state.readPin(req.run);
  if (existing) return resume(state, existing, index, req);

  const channel = req.channel ?? DEFAULT_CHANNEL;
  const ch = own(index.doc.state.channels, channel);
  if (!ch) throw registryError('RC7112', { file: '', message: `channel ${channel} does not exist in the registry` });
  const subject = req.subject ?? null;
  const canaryId = ch.canary && own(index.doc.state.bundles, ch.canary.digest)?.bundle_id;
  const bucket = subject !== null && ch.canary && canaryId ? bucketOf(canaryId, ch.canary.salt, subject) : null;
  const inCanary = ch.canary !== null && inCohort(bucket, ch.canary.bps);
  const digest = inCanary ? (ch.canary as NonNullable<typeof ch.canary>).digest : ch.promoted;
  if (digest === null) throw registryError('RC7404', { file: '', message: `channel ${channel} has no promoted bundle${ch.canary ? ' and the subject is not in its canary' : ''}: nothing is admitted` });
  if (own(index.doc.state.denylist, digest)) throw registryError('RC7405', { file: '', message: `${digest.slice(0, 19)} is revoked` });
  const record = own(index.doc.state.bundles, digest);
  if (!record) throw registryError('RC7101', { file: '', message: `the index has no record of ${digest.slice(0, 19)}` });
  const fetched = await materialiseBundle(o.store, digest, record, o.trust, state.bundlesDir);

  const pin: Pin = {
    schema: PIN_SCHEMA_ID, run: req.run ?? `run-${randomBytes(8).toString('hex')}`, subject, bundle: record.bundle_id, digest,
    index_seq: index.seq, channel, bucket, canary: inCanary, admitted_at: (o.now ?? (() => new Date()))().toISOString(), path: `bundles/${digest.slice(7)}`,
  };
  const created = state.createPin(pin);
  await state.advanceCheckpoint(index);
  if (!created) return resume(state, state.readPin(pin.run) as Pin, index, req);
  return { pin, dir: fetched.dir, resumed: false, index };
}

function resume(state: AdmitterState, pin: Pin, index: VerifiedIndex, req: AdmitRequest): Admission {
  if (req.subject !== undefined && req.subject !== pin.subject) {
    throw registryError('RC7409', { file: `pins/${pin.run}.json`, message: `run ${pin.run} is pinned for subject ${pin.subject ?? '(none)'}, not ${req.subject}` });
  }
  const revoked = own(index.doc.state.denylist, pin.digest);
  if (revoked) throw registryError('RC7407', { file: `pins/${pin.run}.json`, message: `run ${pin.run} is pinned to ${pin.digest.slice(0, 19)}, revoked (${revoked.severity}: ${revoked.reason}); it may not resume` });
  return { pin, dir: join(state.root, pin.path), resumed: true, index };
}

export type PinStatus = 'ok' | 'draining' | 'halted';

export function pinStatus(pin: Pin, denylist: Record<string, DenyEntry>): PinStatus {
  const entry = own(denylist, pin.digest);
  return entry === undefined ? 'ok' : entry.severity === 'halt' ? 'halted' : 'draining';
}

/** The running run's check: RC7406 when halted; a draining run may continue (with a warning). */
export async function checkPin(o: AdmitterOptions, run: string): Promise<{ pin: Pin; status: PinStatus; diagnostics: Diagnostic[] }> {
  const state = new AdmitterState(o.stateDir);
  const pin = state.readPin(run);
  if (pin === null) throw registryError('RC7408', { file: '', message: `run ${run} has no pin in ${o.stateDir}` });
  const index = await verifiedLatest(o);
  const status = pinStatus(pin, index.doc.state.denylist);
  const entry = own(index.doc.state.denylist, pin.digest);
  if (status === 'halted') throw registryError('RC7406', { file: `pins/${run}.json`, message: `run ${run}: its bundle ${pin.digest.slice(0, 19)} was revoked with halt (${entry?.reason ?? ''}); stop now` });
  await state.advanceCheckpoint(index);
  const diagnostics = status === 'draining'
    ? [diag('RC7407', { file: `pins/${run}.json`, severity: 'warning', message: `run ${run} may finish: its bundle was revoked with drain (${entry?.reason ?? ''}), so it may not resume or retry` })]
    : [];
  return { pin, status, diagnostics };
}

/** The pins a revocation of `digest` touches, each with what the revocation does (or would do) to it. */
export async function impactOf(o: AdmitterOptions, digest: string): Promise<{ pins: { pin: Pin; status: PinStatus }[]; revoked: DenyEntry | null }> {
  const index = await verifiedLatest(o);
  const pins = new AdmitterState(o.stateDir).listPins().filter((p) => p.digest === digest);
  return { pins: pins.map((pin) => ({ pin, status: pinStatus(pin, index.doc.state.denylist) })), revoked: own(index.doc.state.denylist, digest) ?? null };
}

/** Open a pinned run's bundle: its digest and the manifest's signatures checked again (for the runtime). */
export function openPinned(stateDir: string, pin: Pin, trust: TrustPolicy): OpenedBundle {
  const dir = join(stateDir, pin.path);
  const record = own(new AdmitterState(stateDir).readCheckpoint()?.index.doc.state.bundles ?? {}, pin.digest);
  const envelope = readRegularFile(`${dir}.dsse.json`);
  if (!envelope.ok) throw registryError('RC7202', { file: `${pin.path}.dsse.json`, message: `the manifest signature of ${pin.digest.slice(0, 19)} is missing from ${stateDir}` });
  return openBundle(dir, { expectDigest: pin.digest, verifyManifest: signedBy({ envelope: envelope.bytes, trust, ...(record ? { seq: record.published_seq } : {}) }) });
}
