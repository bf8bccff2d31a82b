/**
 * `rulec registry mirror --to oci://HOST/REPO`: copy what runtimes need from
 * the authoritative store to an OCI registry, in an order that never shows a
 * reader a half-mirrored state.
 *
 * 1. Verify the source's whole index chain (a mirror never spreads an index
 *    the trust file does not vouch for); refuse an expired latest index
 *    (RC7403: admitters would refuse it — refresh first).
 * 2. Find where the mirror is: its latest index must be one of the source's
 *    (same envelope at that seq), or it is repaired from seq 1; a mirror ahead
 *    of the source is refused (RC7703): mirroring would roll it back.
 * 3. Push the bundles each mirrored channel serves (promoted and canary):
 *    every blob by digest (skipped when present), then a bundle artifact.
 * 4. Push an index artifact for every seq the mirror lacks (admitters replay
 *    the chain from their checkpoint; a reader finds the ones after the
 *    head tag while they are contiguous).
 * 5. Last, move the `index` tag to the latest index (with the audit log).
 * A mirror cut off at any step is retried by running it again: what it
 * pushed is content-addressed, and readers still see the previous head.
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { listedFiles } from '../bundle/layout.js';
import { parseManifestFetched } from '../bundle/parse-manifest.js';
import { digestOf } from '../util/hash.js';
import { readBlob } from './bundle-blobs.js';
import type { VerifiedIndex } from './chain.js';
import { RegistryError, registryError } from './errors.js';
import { own } from './model.js';
import { artifactManifest, ARTIFACT, bundleTag, EMPTY_CONFIG_BYTES, HEAD_TAG, indexTag, layer, LAYER, type Descriptor } from './remote/oci-layout.js';
import type { OciStore } from './stores/oci.js';
import type { Store } from './store.js';
import type { TrustPolicy } from './trust.js';
import { verifyChain } from './verify.js';

export interface MirrorOptions {
  source: Store;
  trust: TrustPolicy;
  target: OciStore;
  /** Channels to mirror the bundles of (default: every channel). */
  channels?: readonly string[];
  now?: () => Date;
}

export interface MirrorReport {
  latest: VerifiedIndex;
  /** The mirror's latest seq before (0: empty or repaired from the start). */
  from: number;
  /** Bundles the mirrored channels serve, by channel. */
  served: { channel: string; role: 'promoted' | 'canary'; digest: string }[];
  pushed: { blobs: number; bytes: number; bundles: number; indexes: number };
}

/** Requests in flight at once: a registry answers a few faster than one, and a mirror of a long history is many. */
const PARALLEL = 4;

export async function mirror(o: MirrorOptions): Promise<MirrorReport> {
  const chain = await verifiedSource(o);
  const latest = chain.at(-1) as VerifiedIndex;
  const pushed = { blobs: 0, bytes: 0, bundles: 0, indexes: 0 };
  const client = o.target.client;
  const present = new Set<string>();
  const putBlob = async (bytes: Buffer): Promise<void> => {
    const digest = digestOf(bytes);
    if (present.has(digest)) return;
    present.add(digest);
    if (await client.hasBlob(digest)) return;
    await client.putBlob(digest, bytes);
    pushed.blobs += 1;
    pushed.bytes += bytes.length;
  };
  const from = await mirrorPosition(o.target, chain);
  const served = servedBundles(latest, o.channels);

  await putBlob(EMPTY_CONFIG_BYTES);
  for (const digest of new Set(served.map((x) => x.digest))) {
    const blobs = await bundleBlobs(o.source, latest, digest);
    await inParallel(blobs, (b) => putBlob(b.bytes));
    const artifact = artifactManifest(ARTIFACT.bundle, blobs.map((b) => b.layer), { 'dev.rulec.bundle.digest': digest });
    if ((await client.headManifest(bundleTag(digest))) !== digestOf(artifact)) {
      await client.putManifest(bundleTag(digest), artifact);
      pushed.bundles += 1;
    }
  }
  await inParallel(chain.slice(from), async (index) => {
    const bytes = Buffer.from(index.bytes);
    await putBlob(bytes);
    await client.putManifest(indexTag(index.seq), artifactManifest(ARTIFACT.index, [layer(LAYER.envelope, bytes)], { 'dev.rulec.index.seq': String(index.seq) }));
    pushed.indexes += 1;
  });
  const audit = (await o.source.readAudit(0)).bytes;
  await putBlob(audit);
  const head = artifactManifest(ARTIFACT.index, [layer(LAYER.envelope, Buffer.from(latest.bytes)), layer(LAYER.audit, audit)], { 'dev.rulec.index.seq': String(latest.seq) });
  await client.putManifest(HEAD_TAG, head);
  return { latest, from, served, pushed };
}

/** Run `fn` over `items`, PARALLEL at a time; the first failure fails the whole (after the running ones settle). */
async function inParallel<T>(items: readonly T[], fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed: unknown = null;
  const lane = async (): Promise<void> => {
    while (next < items.length && failed === null) {
      const item = items[next++] as T;
      try {
        await fn(item);
      } catch (e) {
        failed ??= e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, items.length) }, lane));
  if (failed !== null) throw failed;
}

/** Step 1. */
async function verifiedSource(o: MirrorOptions): Promise<VerifiedIndex[]> {
  if (!(await o.source.exists())) throw registryError('RC7209', { file: '', message: `no registry at ${o.source.location}` });
  const problems: Diagnostic[] = [];
  const chain = await verifyChain(o.source, o.trust, problems);
  const error = problems.find((d) => d.severity === 'error');
  if (error) throw new RegistryError(error, problems.filter((d) => d !== error));
  const latest = chain.at(-1);
  if (!latest) throw registryError('RC7209', { file: '', message: `no index in ${o.source.location}` });
  const now = (o.now ?? (() => new Date()))().toISOString();
  if (latest.doc.expires <= now) {
    throw registryError('RC7403', { file: `index/${latest.seq}`, message: `index seq ${latest.seq} of ${o.source.location} expired at ${latest.doc.expires}; admitters of the mirror would refuse it`, hint: 'run rulec registry refresh, then mirror again' });
  }
  return chain;
}

/** Step 2: how many of the source's indexes the mirror already holds. */
async function mirrorPosition(target: OciStore, chain: readonly VerifiedIndex[]): Promise<number> {
  let head;
  try {
    head = await target.latestIndex();
  } catch (e) {
    // A damaged mirror (a malformed tag, a swapped envelope) is rewritten from the start.
    if (e instanceof RegistryError && /^RC77|^RC720[2-4]|^RC7307$/.test(e.code)) return 0;
    throw e;
  }
  if (head === null) return 0;
  const mine = chain[head.seq - 1];
  if (head.seq > chain.length) {
    throw registryError('RC7703', { file: HEAD_TAG, message: `${target.location} holds index seq ${head.seq}, newer than seq ${chain.length} of the source: mirroring would move it back`, hint: 'mirror from the authoritative store the mirror was filled from' });
  }
  return mine !== undefined && mine.digest === digestOf(head.bytes) ? head.seq : 0;
}

function servedBundles(latest: VerifiedIndex, channels: readonly string[] | undefined): MirrorReport['served'] {
  const names = channels ?? Object.keys(latest.doc.state.channels).sort();
  const served: MirrorReport['served'] = [];
  for (const name of names) {
    const ch = own(latest.doc.state.channels, name);
    if (!ch) throw registryError('RC7112', { file: '', message: `channel ${name} does not exist in the registry` });
    if (ch.promoted) served.push({ channel: name, role: 'promoted', digest: ch.promoted });
    if (ch.canary) served.push({ channel: name, role: 'canary', digest: ch.canary.digest });
  }
  return served;
}

/** Step 3: a bundle's blobs, each read from the source with its digest checked, and their layers. */
async function bundleBlobs(source: Store, latest: VerifiedIndex, digest: string): Promise<{ bytes: Buffer; layer: Descriptor }[]> {
  const record = own(latest.doc.state.bundles, digest);
  if (!record) throw registryError('RC7101', { file: '', message: `the index has no record of ${digest.slice(0, 19)}` });
  const manifest = await readBlob(source, digest, `the manifest of ${record.bundle_id}`);
  const parsed = await parseManifestFetched(manifest, (rel, sha256) => readBlob(source, sha256, `${rel} of ${record.bundle_id}`));
  if (!parsed.ok) throw new RegistryError(parsed.diagnostic);
  const envelope = await readBlob(source, record.signature, `the manifest signature of ${record.bundle_id}`);
  const blobs = [
    { bytes: manifest, layer: layer(LAYER.manifest, manifest, 'manifest.json') },
    { bytes: envelope, layer: layer(LAYER.envelope, envelope, 'manifest.dsse.json') },
  ];
  for (const [rel, want] of listedFiles(parsed.manifest)) {
    const bytes = await readBlob(source, want.sha256, `${rel} of ${record.bundle_id}`);
    blobs.push({ bytes, layer: layer(LAYER.text, bytes, rel) });
  }
  return blobs;
}
