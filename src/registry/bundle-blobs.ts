/**
 * Bundles as blobs. A bundle is stored as its manifest (whose digest is the
 * bundle digest), one blob per context and attachment text (by the sha256
 * the manifest lists, so identical texts are stored once), and the DSSE
 * envelope that signs the manifest.
 *
 * - storeBundle: open and fully verify a bundle directory (openBundle), sign
 *   its manifest, and put every blob; the index does not reference them yet.
 * - materialiseBundle: fetch a bundle by digest into a directory, checking
 *   every blob against its digest and the manifest's signatures, write it
 *   under a temp name and rename it into place, then open it again with
 *   openBundle (the same verification a runtime does).
 */
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUNDLE_DIRS, listedFiles, MANIFEST_FILE } from '../bundle/layout.js';
import { manifestBytes, type ManifestV1 } from '../bundle/model.js';
import { BundleError } from '../bundle/bundle-error.js';
import { openBundle, type OpenedBundle } from '../bundle/open-bundle.js';
import { parseManifestFetched } from '../bundle/parse-manifest.js';
import { readRegularFile } from '../bundle/read-regular.js';
import { diag } from '../diagnostics/diagnostic.js';
import { digestOf } from '../util/hash.js';
import { RegistryError, registryError } from './errors.js';
import type { SigningKey } from './keys.js';
import type { BundleRecord } from './model.js';
import { envelopeBytes, PAYLOAD_TYPE, signEnvelope, signedBy } from './sign.js';
import type { Store } from './store.js';
import type { TrustPolicy } from './trust.js';
import { isErrno } from './stores/durable.js';

export interface StoredBundle {
  digest: string;
  manifest: ManifestV1;
  /** Digest of the manifest's signature envelope blob. */
  signature: string;
}

export async function storeBundle(store: Store, dir: string, keys: readonly SigningKey[]): Promise<StoredBundle> {
  const opened = openBundle(dir, { verify: 'all' });
  const bytes = Buffer.from(manifestBytes(opened.manifest));
  for (const [rel, want] of listedFiles(opened.manifest)) {
    const r = readRegularFile(join(dir, rel));
    if (!r.ok || digestOf(r.bytes) !== want.sha256) throw new BundleError(diag('RC7006', { file: rel, message: `${rel} changed while it was published` }));
    await store.putBlob(r.bytes);
  }
  const digest = await store.putBlob(bytes);
  const signature = await store.putBlob(Buffer.from(envelopeBytes(signEnvelope(PAYLOAD_TYPE.manifest, bytes, keys)))); 
  return { digest, manifest: opened.manifest, signature };
}

/** A blob's bytes, refused unless they hash to the digest (RC7202 missing, RC7203 changed). */
export async function readBlob(store: Store, digest: string, what: string): Promise<Buffer> {
  const bytes = await store.getBlob(digest);
  const file = `blobs/${digest}`;
  if (bytes === null) throw registryError('RC7202', { file, message: `${what} (${digest.slice(0, 19)}) is missing from the store` });
  if (digestOf(bytes) !== digest) throw registryError('RC7203', { file, message: `${what} does not match its digest ${digest.slice(0, 19)}: the blob was changed` });
  return bytes;
}

export interface FetchedBundle {
  dir: string;
  envelope: Buffer;
  bundle: OpenedBundle;
}

/**
 * `<root>/<hex>/` holding the bundle `digest`, fetched and verified; reused
 * when it is already there and verifies. Concurrent admitters may fetch the
 * same bundle: each writes its own temp directory, the first rename wins and
 * the others open the winner's copy.
 */
export async function materialiseBundle(store: Store, digest: string, record: BundleRecord, trust: TrustPolicy, root: string): Promise<FetchedBundle> {
  const dir = join(root, digest.slice(7));
  const signature = { trust, seq: record.published_seq };
  const existing = openExisting(dir, digest, signature);
  if (existing) return existing;
  const manifestRaw = await readBlob(store, digest, 'the bundle manifest');
  const parsed = await parseManifestFetched(manifestRaw, (rel, sha256) => readBlob(store, sha256, rel));
  if (!parsed.ok) throw new RegistryError(parsed.diagnostic);
  const envelope = await readBlob(store, record.signature, 'the manifest signature');
  mkdirSync(root, { recursive: true });
  const tmp = mkdtempSync(join(root, '.tmp-'));
  try {
    for (const sub of BUNDLE_DIRS) mkdirSync(join(tmp, sub));
    writeFileSync(join(tmp, MANIFEST_FILE), manifestRaw);
    for (const [rel, want] of listedFiles(parsed.manifest)) writeFileSync(join(tmp, rel), await readBlob(store, want.sha256, rel));
    openBundle(tmp, { expectDigest: digest, verify: 'all', verifyManifest: signedBy({ ...signature, envelope }) });
    writeFileSync(`${tmp}.dsse.json`, envelope);
    renameSync(`${tmp}.dsse.json`, `${dir}.dsse.json`);
    renameSync(tmp, dir);
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    rmSync(`${tmp}.dsse.json`, { force: true });
    if (!isErrno(e, 'ENOTEMPTY', 'EEXIST')) throw e;
  }
  return { dir, envelope, bundle: openBundle(dir, { expectDigest: digest, verifyManifest: signedBy({ ...signature, envelope }) }) };
}

/** The bundle already fetched into `dir`, if it verifies; a copy that does not is removed (never served). */
function openExisting(dir: string, digest: string, signature: { trust: TrustPolicy; seq: number }): FetchedBundle | null {
  if (!existsSync(dir)) return null;
  const env = readRegularFile(`${dir}.dsse.json`);
  try {
    if (env.ok) return { dir, envelope: env.bytes, bundle: openBundle(dir, { expectDigest: digest, verify: 'all', verifyManifest: signedBy({ ...signature, envelope: env.bytes }) }) };
  } catch (e) {
    if (!(e instanceof BundleError)) throw e;
  }
  rmSync(dir, { recursive: true, force: true });
  return null;
}
