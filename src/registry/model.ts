/**
 * The registry's data: the state a signed index holds, the operations that
 * change it, and the grammars every name must match before it is used as a
 * key or a file name (schemas/registry-index.schema.json says the same).
 */

export const INDEX_SCHEMA_ID = 'https://rulec.dev/schemas/registry-index-v1.json';
export const DEFAULT_CHANNEL = 'stable';
/** Canary sizes are basis points of the subject space: 1 bp = 0.01 %. */
export const MAX_BPS = 10_000;

export const GRAMMAR = {
  digest: /^sha256:[0-9a-f]{64}$/,
  bundleId: /^b-[0-9a-f]{16}$/,
  channel: /^[a-z0-9][a-z0-9._-]{0,63}$/,
  keyid: /^[0-9a-f]{64}$/,
  runId: /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/,
  /** Salts and subjects are hashed with NUL separators, so they may not contain NUL. */
  salt: /^[\x21-\x7e]{1,64}$/,
} as const;

export type BundleState = 'draft' | 'canary' | 'promoted' | 'deprecated' | 'revoked';
export type Role = 'publish' | 'promote' | 'revoke';
export const ROLES: readonly Role[] = ['publish', 'promote', 'revoke'];
export type RevokeSeverity = 'drain' | 'halt';

/** What the registry knows about a bundle digest, in every channel: fixed at its first publish. */
export interface BundleRecord {
  bundle_id: string;
  version: string;
  /** The manifest's revision.seq. */
  rev_seq: number;
  /** Digest of the blob holding the manifest's DSSE envelope (publish role). */
  signature: string;
  published_seq: number;
}

/** A bundle in one channel. `rev` counts its transitions and never goes backwards. */
export interface ChannelBundle {
  state: BundleState;
  rev: number;
  /** Index seq of its last transition. */
  since: number;
}

export interface Canary {
  digest: string;
  bps: number;
  salt: string;
  since: number;
}

export interface ChannelState {
  bundles: Record<string, ChannelBundle>;
  promoted: string | null;
  canary: Canary | null;
  /** The most recently promoted bundle that is neither revoked nor the promoted one. */
  last_good: string | null;
  /** Every digest promoted here (promote, rollback, restore after revoke), oldest first. */
  history: string[];
  /** Highest semver revision and revision seq ever published here. */
  version: string | null;
  rev_seq: number;
}

export interface DenyEntry {
  severity: RevokeSeverity;
  reason: string;
  seq: number;
}

export interface RegistryState {
  bundles: Record<string, BundleRecord>;
  channels: Record<string, ChannelState>;
  denylist: Record<string, DenyEntry>;
}

export type Op =
  | { op: 'publish'; channel: string; digest: string; bundle_id: string; version: string; rev_seq: number; signature: string }
  | { op: 'canary'; channel: string; digest: string; bps: number; salt: string }
  | { op: 'ramp'; channel: string; digest: string; bps: number }
  | { op: 'abort'; channel: string; digest: string }
  | { op: 'promote'; channel: string; digest: string }
  | { op: 'rollback'; channel: string; digest: string }
  | { op: 'deprecate'; channel: string; digest: string }
  | { op: 'revoke'; digest: string; severity: RevokeSeverity; reason: string };

export type OpName = Op['op'];
export const OP_NAMES: readonly OpName[] = ['publish', 'canary', 'ramp', 'abort', 'promote', 'rollback', 'deprecate', 'revoke'];

/** Which role's threshold authorises each operation. */
export const ROLE_OF: Readonly<Record<OpName, Role>> = {
  publish: 'publish', deprecate: 'publish',
  canary: 'promote', ramp: 'promote', abort: 'promote', promote: 'promote', rollback: 'promote',
  revoke: 'revoke',
};

/** An operation as the index and the audit log record it: who asked for it. */
export type OpRecord = Op & { actor: string };

/** The payload of one signed index. */
export interface IndexDoc {
  schema: typeof INDEX_SCHEMA_ID;
  seq: number;
  /** Digest of the previous signed index envelope; null for seq 1. */
  prev: string | null;
  at: string;
  expires: string;
  op: OpRecord;
  /** The audit log's hash-chain head after this index's entry, and its line number. */
  audit: { head: string; entries: number };
  state: RegistryState;
}

export function emptyState(): RegistryState {
  return { bundles: {}, channels: {}, denylist: {} };
}

export const has = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

/** `o[k]` for own keys only, so a key like `__proto__` never reaches the prototype. */
export function own<T>(o: Record<string, T>, k: string): T | undefined {
  return has(o, k) ? o[k] : undefined;
}
