/**
 * The trust file (schemas/registry-trust.schema.json): which ed25519 keys are
 * trusted, for which roles (publish, promote, revoke), how many of a role's
 * keys must sign (k of n), which keys are revoked, and which are retired after
 * an index sequence number (their older signatures still count; key rotation).
 *
 * parseTrust is pure: bytes → a TrustPolicy or RC7301 diagnostics. Every key id
 * is checked against its public key, so an id can never stand for another key.
 */
import type { KeyObject } from 'node:crypto';
import { diag, type Diagnostic } from '../diagnostics/diagnostic.js';
import { keyidOf, publicKeyFrom } from './keys.js';
import { GRAMMAR, ROLES, type Role } from './model.js';

export const TRUST_SCHEMA_ID = 'https://rulec.dev/schemas/registry-trust-v1.json';

export interface TrustFile {
  schema: typeof TRUST_SCHEMA_ID;
  keys: Record<string, { name: string; public_key: string; retired_after_seq?: number }>;
  roles: Record<Role, { keys: string[]; threshold: number }>;
  revoked_keys?: string[];
}

export interface TrustedKey {
  name: string;
  key: KeyObject;
  retiredAfterSeq: number | null;
}

export interface TrustPolicy {
  /** Where it came from, for diagnostics. */
  file: string;
  keys: Map<string, TrustedKey>;
  roles: Record<Role, { keys: Set<string>; threshold: number }>;
  revoked: Set<string>;
}

export type TrustParse = { ok: true; trust: TrustPolicy; doc: TrustFile } | { ok: false; diagnostics: Diagnostic[] };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function parseTrust(bytes: string | Uint8Array, file: string): TrustParse {
  const problems: string[] = [];
  let doc: unknown;
  try {
    doc = JSON.parse(typeof bytes === 'string' ? bytes : Buffer.from(bytes).toString('utf8'));
  } catch {
    return fail(file, ['is not valid JSON']);
  }
  if (!isObject(doc)) return fail(file, ['must be a JSON object']);
  for (const k of Object.keys(doc)) if (!['schema', 'keys', 'roles', 'revoked_keys'].includes(k)) problems.push(`unknown key "${k}"`);
  if (doc.schema !== TRUST_SCHEMA_ID) problems.push(`schema must be "${TRUST_SCHEMA_ID}"`);
  const keys = new Map<string, TrustedKey>();
  if (!isObject(doc.keys)) problems.push('keys must be an object of key id → {name, public_key}');
  else for (const [id, entry] of Object.entries(doc.keys)) readKey(id, entry, keys, problems);
  const revoked = new Set<string>();
  if (doc.revoked_keys !== undefined) {
    if (!Array.isArray(doc.revoked_keys) || !doc.revoked_keys.every((k) => typeof k === 'string' && GRAMMAR.keyid.test(k))) problems.push('revoked_keys must be a list of key ids (64 hex digits)');
    else for (const k of doc.revoked_keys as string[]) revoked.add(k);
  }
  const roles = {} as TrustPolicy['roles'];
  if (!isObject(doc.roles)) problems.push('roles must be an object with publish, promote and revoke');
  else {
    for (const k of Object.keys(doc.roles)) if (!(ROLES as readonly string[]).includes(k)) problems.push(`roles: unknown role "${k}"`);
    for (const role of ROLES) roles[role] = readRole(role, doc.roles[role], keys, problems);
  }
  if (problems.length > 0) return fail(file, problems);
  return { ok: true, trust: { file, keys, roles, revoked }, doc: doc as unknown as TrustFile };
}

function readKey(id: string, entry: unknown, keys: Map<string, TrustedKey>, problems: string[]): void {
  const at = `keys.${id.slice(0, 16)}`;
  if (!GRAMMAR.keyid.test(id)) return void problems.push(`${at}: a key id is 64 lower-case hex digits`);
  if (!isObject(entry)) return void problems.push(`${at} must be {name, public_key}`);
  for (const k of Object.keys(entry)) if (!['name', 'public_key', 'retired_after_seq'].includes(k)) problems.push(`${at}: unknown key "${k}"`);
  if (typeof entry.name !== 'string' || entry.name.length === 0 || entry.name.length > 100) problems.push(`${at}.name must be 1–100 characters`);
  const retired = entry.retired_after_seq;
  if (retired !== undefined && !(Number.isSafeInteger(retired) && (retired as number) >= 0)) problems.push(`${at}.retired_after_seq must be a non-negative integer`);
  const key = typeof entry.public_key === 'string' ? publicKeyFrom(entry.public_key) : null;
  if (key === null) return void problems.push(`${at}.public_key must be the base64 SPKI DER of an ed25519 public key`);
  if (keyidOf(key) !== id) return void problems.push(`${at}: the key id is not the sha256 of its public key`);
  keys.set(id, { name: String(entry.name), key, retiredAfterSeq: retired === undefined ? null : (retired as number) });
}

function readRole(role: Role, value: unknown, keys: Map<string, TrustedKey>, problems: string[]): { keys: Set<string>; threshold: number } {
  const out = { keys: new Set<string>(), threshold: 1 };
  if (!isObject(value)) return problems.push(`roles.${role} must be {keys, threshold}`), out;
  for (const k of Object.keys(value)) if (k !== 'keys' && k !== 'threshold') problems.push(`roles.${role}: unknown key "${k}"`);
  if (!Array.isArray(value.keys)) problems.push(`roles.${role}.keys must list key ids (an empty list disables the role)`);
  else for (const id of value.keys) {
    if (typeof id !== 'string' || !keys.has(id)) problems.push(`roles.${role}.keys: ${String(id).slice(0, 16)} is not a key of this file`);
    else if (out.keys.has(id)) problems.push(`roles.${role}.keys: ${id.slice(0, 16)} is listed twice`);
    else out.keys.add(id);
  }
  const t = value.threshold;
  if (!Number.isSafeInteger(t) || (t as number) < 1 || (t as number) > Math.max(1, out.keys.size)) problems.push(`roles.${role}.threshold must be 1–${Math.max(1, out.keys.size)} (k of the role's n keys)`);
  else out.threshold = t as number;
  return out;
}

function fail(file: string, problems: string[]): TrustParse {
  return { ok: false, diagnostics: problems.map((p) => diag('RC7301', { file, message: `trust file ${p}` })) };
}

/** Does `keyid` count for `role` at index `seq` (undefined: a bundle signature, no sequence)? */
export function keyStanding(trust: TrustPolicy, keyid: string, role: Role, seq?: number): 'counts' | 'revoked' | 'untrusted' | 'retired' | 'other-role' {
  if (trust.revoked.has(keyid)) return 'revoked';
  const key = trust.keys.get(keyid);
  if (!key) return 'untrusted';
  if (key.retiredAfterSeq !== null && (seq === undefined || seq > key.retiredAfterSeq)) return 'retired';
  return trust.roles[role].keys.has(keyid) ? 'counts' : 'other-role';
}

