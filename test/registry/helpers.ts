/**
 * Registry test fixtures: bundles minted from the dogfood bundle (same
 * content, a different revision, so a different digest — each a valid bundle
 * openBundle verifies), keys and trust files, and a writer/admitter setup in a
 * temp directory.
 */
import { RegistryError } from '../../src/registry/errors.js';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MANIFEST_FILE } from '../../src/bundle/layout.js';
import { contentOf, manifestBytes, sealManifest, type ManifestV1 } from '../../src/bundle/model.js';
import { currentBundleDir } from '../../src/bundle/current-pointer.js';
import { readWholeManifest } from '../helpers/bundle-manifest.js';
import { generateKey, loadSigningKey, type SigningKey } from '../../src/registry/keys.js';
import type { Role } from '../../src/registry/model.js';
import { LocalStore } from '../../src/registry/stores/local.js';
import { parseTrust, TRUST_SCHEMA_ID, type TrustFile, type TrustPolicy } from '../../src/registry/trust.js';
import { digestOf } from '../../src/util/hash.js';
import type { WriterOptions } from '../../src/registry/writer.js';
import type { AdmitterOptions } from '../../src/registry/admit.js';

export const REPO_ROOT = join(import.meta.dirname, '..', '..');
/**
 * RULEC_STRESS=1 runs the crash and concurrency tests at the full
 * size (≥ 100 killed runs; 8 processes × 50 operations on each store). By
 * default they run smaller (every durable step killed once and a few random
 * kills; 4 processes × 12 operations), so npm test stays short on two cores.
 */
export const STRESS = process.env.RULEC_STRESS === '1';
export const SEED_BUNDLE = currentBundleDir(join(REPO_ROOT, 'bundles')) as string;

/** A copy of the seed bundle with revision `version`/`seq`: returns its directory and digest. */
export function mintBundle(into: string, version: string, seq: number): { dir: string; digest: string; manifest: ManifestV1 } {
  const seed = readWholeManifest(SEED_BUNDLE);
  const manifest = sealManifest(contentOf(seed), { version, seq }, seed.source);
  const dir = join(into, `bundle-${version}`);
  cpSync(SEED_BUNDLE, dir, { recursive: true });
  writeFileSync(join(dir, MANIFEST_FILE), manifestBytes(manifest));
  return { dir, digest: digestOf(manifestBytes(manifest)), manifest };
}

export interface KeyFile {
  name: string;
  path: string;
  key: SigningKey;
  publicKey: string;
}

export function makeKey(dir: string, name: string): KeyFile {
  const k = generateKey();
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}.key`);
  writeFileSync(path, k.privatePem, { mode: 0o600 });
  return { name, path, key: loadSigningKey(path), publicKey: k.publicKey };
}

export function trustDoc(keys: KeyFile[], roles: Partial<Record<Role, { keys: KeyFile[]; threshold?: number }>>, extra: Partial<TrustFile> = {}): TrustFile {
  const role = (r: Role) => ({ keys: (roles[r]?.keys ?? []).map((k) => k.key.keyid), threshold: roles[r]?.threshold ?? 1 });
  return {
    schema: TRUST_SCHEMA_ID,
    keys: Object.fromEntries(keys.map((k) => [k.key.keyid, { name: k.name, public_key: k.publicKey }])),
    roles: { publish: role('publish'), promote: role('promote'), revoke: role('revoke') },
    ...extra,
  };
}

export function policyOf(doc: TrustFile, file = 'trust.json'): TrustPolicy {
  const parsed = parseTrust(JSON.stringify(doc), file);
  if (!parsed.ok) throw new Error(parsed.diagnostics.map((d) => d.message).join('; '));
  return parsed.trust;
}

/** A temp dir with a store, an admitter state dir, keys alice (every role) and bob (promote), and a trust file. */
export interface Setup {
  dir: string;
  storeDir: string;
  stateDir: string;
  trustFile: string;
  alice: KeyFile;
  bob: KeyFile;
  trust: TrustPolicy;
  store: LocalStore;
  writer(keys?: KeyFile[], extra?: Partial<WriterOptions>): WriterOptions;
  admitter(extra?: Partial<AdmitterOptions>): AdmitterOptions;
}

export function setup(prefix = 'rulec-reg-'): Setup {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const alice = makeKey(join(dir, 'keys'), 'alice');
  const bob = makeKey(join(dir, 'keys'), 'bob');
  const doc = trustDoc([alice, bob], { publish: { keys: [alice] }, promote: { keys: [alice, bob] }, revoke: { keys: [alice] } });
  const trustFile = join(dir, 'trust.json');
  writeFileSync(trustFile, `${JSON.stringify(doc, null, 2)}\n`);
  const trust = policyOf(doc);
  const storeDir = join(dir, 'store');
  const stateDir = join(dir, 'admit');
  const store = new LocalStore(storeDir);
  return {
    dir, storeDir, stateDir, trustFile, alice, bob, trust, store,
    writer: (keys = [alice], extra = {}) => ({ store, trust, keys: keys.map((k) => k.key), actor: 'test', ...extra }),
    admitter: (extra = {}) => ({ store, trust, stateDir, ...extra }),
  };
}

/** The coded refusal a registry call ends in (its RegistryError code), or 'accepted'. */
export async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    if (e instanceof RegistryError) return e.code;
    throw e;
  }
  return 'accepted';
}
