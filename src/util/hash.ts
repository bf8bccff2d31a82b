import { createHash } from 'node:crypto';

/** Hex sha256 of bytes or a UTF-8 string. */
export function sha256Hex(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/** `sha256:<hex>`, the digest form used in manifests and bundle ids. */
export function digestOf(data: Uint8Array | string): string {
  return `sha256:${sha256Hex(data)}`;
}

/**
 * The sha256 of a path listing: each path followed by NUL, which no path holds, so two listings
 * never share a digest. Hashed in slices: one string of 100,000 paths joined would be 5 MB of
 * garbage. The build's fingerprint, the glob memo and the profile memo all name a listing by it.
 */
export function listingDigest(paths: readonly string[]): string {
  const hash = createHash('sha256');
  for (let i = 0; i < paths.length; i += 1024) hash.update(`${paths.slice(i, i + 1024).join('\u0000')}\u0000`);
  return hash.digest('hex');
}

/** A short, content-derived id: prefix + first 16 hex chars of sha256. */
export function contentId(prefix: string, data: string): string {
  return `${prefix}${sha256Hex(data).slice(0, 16)}`;
}
