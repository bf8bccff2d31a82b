/**
 * DSSE envelopes (https://github.com/secure-systems-lab/dsse, protocol v1):
 * signatures are ed25519 over PAE(payloadType, payload), where
 *   PAE(type, body) = "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body
 * and LEN is the byte length in ASCII decimal. An envelope is stored as
 * canonical JSON, so its digest is reproducible; signatures are sorted by key id.
 *
 * checkSignatures counts distinct keys of a role that verify (k of n). A
 * signature by a trusted key that does not verify refuses the envelope: it
 * means the payload was changed. Signatures by revoked, removed or retired
 * keys never count; when the threshold is missed the diagnostic names why.
 */
import { sign as edSign, verify as edVerify } from 'node:crypto';
import { diag, type Diagnostic } from '../diagnostics/diagnostic.js';
import { canonicalJson } from '../util/canonical-json.js';
import { compareCodeUnits } from '../util/compare.js';
import type { SigningKey } from './keys.js';
import { GRAMMAR, type Role } from './model.js';
import { keyStanding, type TrustPolicy } from './trust.js';

export const PAYLOAD_TYPE = {
  manifest: 'application/vnd.rulec.manifest.v1+json',
  index: 'application/vnd.rulec.registry-index.v1+json',
} as const;

export interface Envelope {
  payloadType: string;
  /** base64 of the payload bytes. */
  payload: string;
  signatures: { keyid: string; sig: string }[];
}

export function pae(payloadType: string, payload: Uint8Array): Buffer {
  const type = Buffer.from(payloadType, 'utf8');
  return Buffer.concat([Buffer.from(`DSSEv1 ${type.length} `), type, Buffer.from(` ${payload.length} `), payload]);
}

export function signEnvelope(payloadType: string, payload: Uint8Array, keys: readonly SigningKey[]): Envelope {
  const message = pae(payloadType, payload);
  const byId = new Map(keys.map((k) => [k.keyid, k]));
  const signatures = [...byId.values()]
    .map((k) => ({ keyid: k.keyid, sig: edSign(null, message, k.key).toString('base64') }))
    .sort((a, b) => compareCodeUnits(a.keyid, b.keyid));
  return { payloadType, payload: Buffer.from(payload).toString('base64'), signatures };
}

export function envelopeBytes(env: Envelope): string {
  return canonicalJson(env);
}

export type EnvelopeParse = { ok: true; envelope: Envelope; payload: Buffer } | { ok: false; diagnostic: Diagnostic };

/** Bytes → an envelope of `payloadType` in canonical form, or RC7307. */
export function parseEnvelope(bytes: Uint8Array | string, payloadType: string, file: string): EnvelopeParse {
  const bad = (why: string): EnvelopeParse => ({ ok: false, diagnostic: diag('RC7307', { file, message: `signature envelope ${why}` }) });
  const text = typeof bytes === 'string' ? bytes : Buffer.from(bytes).toString('utf8');
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return bad('is not valid JSON');
  }
  const env = v as Envelope;
  if (typeof v !== 'object' || v === null || Array.isArray(v) || Object.keys(v).sort().join() !== 'payload,payloadType,signatures') return bad('must have exactly payloadType, payload and signatures');
  if (env.payloadType !== payloadType) return bad(`has payload type ${JSON.stringify(env.payloadType)}, expected ${payloadType}`);
  if (typeof env.payload !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(env.payload)) return bad('payload is not base64');
  if (!Array.isArray(env.signatures) || !env.signatures.every(isSignature)) return bad('signatures must be a list of {keyid, sig}');
  if (canonicalJson(v) !== text) return bad('is not in canonical form');
  return { ok: true, envelope: env, payload: Buffer.from(env.payload, 'base64') };
}

function isSignature(s: unknown): s is Envelope['signatures'][number] {
  if (typeof s !== 'object' || s === null) return false;
  const o = s as Record<string, unknown>;
  return Object.keys(o).sort().join() === 'keyid,sig' && typeof o.keyid === 'string' && GRAMMAR.keyid.test(o.keyid) && typeof o.sig === 'string';
}

/**
 * null when distinct, verifying signatures of `role` reach its threshold;
 * otherwise the diagnostic that says why not. `seq` is the index sequence
 * number the signature is for (retired keys count up to theirs).
 */
export function checkSignatures(env: Envelope, trust: TrustPolicy, role: Role, file: string, seq?: number): Diagnostic | null {
  const message = pae(env.payloadType, Buffer.from(env.payload, 'base64'));
  const counted = new Set<string>();
  const refusedBy: Record<'revoked' | 'untrusted' | 'retired' | 'other-role', string[]> = { revoked: [], untrusted: [], retired: [], 'other-role': [] };
  for (const s of env.signatures) {
    const standing = keyStanding(trust, s.keyid, role, seq);
    const key = trust.keys.get(s.keyid);
    if (key && standing !== 'revoked' && !verifies(message, key.key, s.sig)) {
      return diag('RC7302', { file, message: `signature by ${key.name} (${s.keyid.slice(0, 16)}) does not verify: the signed document was changed` });
    }
    if (standing === 'counts') counted.add(s.keyid);
    else refusedBy[standing].push(s.keyid.slice(0, 16));
  }
  const need = trust.roles[role].threshold;
  if (counted.size >= need) return null;
  const got = `${counted.size} of the ${need} ${role} signature${need === 1 ? '' : 's'} required`;
  if (refusedBy.revoked.length > 0) return diag('RC7304', { file, message: `signed by revoked key ${refusedBy.revoked.join(', ')}: ${got}` });
  if (refusedBy.untrusted.length > 0) return diag('RC7305', { file, message: `signed by key ${refusedBy.untrusted.join(', ')}, which is not in the trust file: ${got}` });
  if (refusedBy.retired.length > 0) return diag('RC7305', { file, message: `signed by key ${refusedBy.retired.join(', ')}, retired before index seq ${seq ?? '(none)'}: ${got}` });
  const other = refusedBy['other-role'].length > 0 ? ` (${refusedBy['other-role'].join(', ')} lack the ${role} role)` : '';
  return diag('RC7303', { file, message: `${got}${other}` });
}

function verifies(message: Buffer, key: import('node:crypto').KeyObject, sigB64: string): boolean {
  try {
    return edVerify(null, message, key, Buffer.from(sigB64, 'base64'));
  } catch {
    return false;
  }
}

/** A manifest's DSSE envelope and the trust that must vouch for it (openBundle's `signature` option). */
export interface ManifestSignature {
  envelope: Uint8Array | string;
  trust: TrustPolicy;
  /** Index seq the bundle was published at (keys retired after it still count). */
  seq?: number;
}

/** null when `sig` signs exactly these manifest bytes to the publish threshold. */
export function verifyManifestSignature(manifest: Uint8Array, sig: ManifestSignature): Diagnostic | null {
  const file = 'manifest.json';
  const env = parseEnvelope(sig.envelope, PAYLOAD_TYPE.manifest, file);
  if (!env.ok) return env.diagnostic;
  if (!env.payload.equals(Buffer.from(manifest))) return diag('RC7307', { file, message: 'the signature envelope signs another manifest than this one' });
  return checkSignatures(env.envelope, sig.trust, 'publish', file, sig.seq);
}

/** An `openBundle` `verifyManifest` hook that refuses a manifest `sig` does not sign to the publish threshold. */
export function signedBy(sig: ManifestSignature): (manifest: Buffer) => Diagnostic | null {
  return (manifest) => verifyManifestSignature(manifest, sig);
}
