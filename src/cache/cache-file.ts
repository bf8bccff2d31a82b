/**
 * One file of the build cache: a header line that says what the file holds,
 * for which compiler and policy, and the size and sha256 of the body after it.
 *
 *   rulec-cache 1\n
 *   {"body":{"bytes":N,"sha256":"<hex>"},"compiler":"<id>","kind":"tokens","policy":"<digest>"}\n
 *   <body>
 *
 * - Read: only a regular file (never through a link), at most MAX_CACHE_FILE
 *   bytes; any other magic, header, size or digest is `damaged` (a torn or
 *   truncated write, a disk error, an edit), another compiler or policy is a
 *   mismatch. None is ever an exception: the caller notes it and goes on cold.
 * - Write: to a temporary file (mode 0600) in the same directory, renamed
 *   into place, so a reader sees the old file or the new one, never half.
 */
import { randomBytes } from 'node:crypto';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readRegularFile, type RegularRead } from '../bundle/read-regular.js';
import { canonicalJson } from '../util/canonical-json.js';
import { sha256Hex } from '../util/hash.js';

const MAGIC = 'rulec-cache 1\n';
/** No cache file is read past this size: a build keeps only what it used, far below it. */
export const MAX_CACHE_FILE = 64 * 1024 * 1024;

export interface CacheHeader {
  kind: string;
  /** compilerIdentity(): the compiler's version and build. */
  compiler: string;
  /** The digest of the policy the file was made under, or null when its content does not depend on one. */
  policy: string | null;
}

export type CacheRead =
  | { ok: true; body: Buffer }
  /** No file, or one of another rulec or another policy: stale, not damaged (nothing to report). */
  | { ok: false; why: 'absent' | 'other-compiler' | 'other-policy' }
  | { ok: false; why: 'damaged'; detail: string };

/** The body of `dir/name` when its header is `expected` and the body is whole; why not otherwise. */
export function readCacheFile(dir: string, name: string, expected: CacheHeader): CacheRead {
  const read = readRegularFile(join(dir, name), MAX_CACHE_FILE);
  if (!read.ok) return read.why === 'missing' ? { ok: false, why: 'absent' } : { ok: false, why: 'damaged', detail: unread(read) };
  const data = read.bytes;
  const damaged = (detail: string): CacheRead => ({ ok: false, why: 'damaged', detail });
  if (data.subarray(0, MAGIC.length).toString('latin1') !== MAGIC) return damaged('it is not a rulec cache file');
  const eol = data.indexOf(0x0a, MAGIC.length);
  if (eol < 0) return damaged('its header is cut short');
  let header: unknown;
  try {
    header = JSON.parse(data.subarray(MAGIC.length, eol).toString('utf8'));
  } catch {
    return damaged('its header is not JSON');
  }
  const h = (typeof header === 'object' && header !== null ? header : {}) as Record<string, unknown>;
  const body = (typeof h.body === 'object' && h.body !== null ? h.body : {}) as Record<string, unknown>;
  if (h.kind !== expected.kind || typeof h.compiler !== 'string' || !(typeof h.policy === 'string' || h.policy === null)
    || typeof body.bytes !== 'number' || typeof body.sha256 !== 'string') return damaged('its header is not one rulec writes');
  const rest = data.subarray(eol + 1);
  if (rest.length !== body.bytes) return damaged(`it holds ${rest.length} of the ${body.bytes} bytes its header announces (truncated or appended to)`);
  if (sha256Hex(rest) !== body.sha256) return damaged('its content does not match the sha256 in its header');
  if (h.compiler !== expected.compiler) return { ok: false, why: 'other-compiler' };
  if (h.policy !== expected.policy) return { ok: false, why: 'other-policy' };
  return { ok: true, body: rest };
}

/** Write `dir/name` whole (temp file, then rename); the error code when it cannot be written. */
export function writeCacheFile(dir: string, name: string, header: CacheHeader, body: Uint8Array): string | null {
  const head = canonicalJson({ ...header, body: { bytes: body.length, sha256: sha256Hex(body) } });
  const tmp = join(dir, `.${name}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    writeFileSync(tmp, Buffer.concat([Buffer.from(`${MAGIC}${head}\n`, 'utf8'), body]), { mode: 0o600, flag: 'wx' });
    renameSync(tmp, join(dir, name));
    return null;
  } catch (e) {
    rmSync(tmp, { force: true });
    return (e as NodeJS.ErrnoException).code ?? 'error';
  }
}

/** A sha256 in hex, as the cache files key their entries. */
export const HEX64 = /^[0-9a-f]{64}$/;

/** A JSON body's value, or undefined when the body is not JSON (JSON itself has no undefined). */
export function jsonOf(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** Why a cache file was not read, as a note says it. */
function unread(read: Exclude<RegularRead, { ok: true }>): string {
  if (read.detail === 'a symbolic link') return 'it is a symbolic link';
  if (read.why === 'not-regular') return 'it cannot be read (not a regular file)';
  if (read.why === 'too-large') return `it cannot be read (over ${MAX_CACHE_FILE} bytes)`;
  return `it cannot be read (${read.detail ?? 'error'})`;
}

/** Ascending indices as the first and then the gaps between neighbours (small numbers, short JSON). */
export function gapsOf(indices: readonly number[]): number[] {
  return indices.map((x, i) => (i === 0 ? x : x - (indices[i - 1] as number)));
}

/** [first, gap, gap …] back to ascending indices; null unless the first is ≥ 0, every gap ≥ 1 and every sum a safe integer. */
export function runningSums(gaps: readonly unknown[]): number[] | null {
  const out: number[] = [];
  let at = 0;
  for (const [i, g] of gaps.entries()) {
    if (!Number.isSafeInteger(g) || (g as number) < (i === 0 ? 0 : 1)) return null;
    at = i === 0 ? (g as number) : at + (g as number);
    if (!Number.isSafeInteger(at)) return null;
    out.push(at);
  }
  return out;
}
