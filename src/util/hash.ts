import { createHash, type Hash } from 'node:crypto';

/** Hex sha256 of bytes or a UTF-8 string. */
export function sha256Hex(data: Uint8Array | string): string {
  return (typeof data === 'string' ? updateWithText(createHash('sha256'), data) : createHash('sha256').update(data)).digest('hex');
}

/** Strings longer than this are hashed a slice at a time (updateWithText). */
export const TEXT_SLICE = 1 << 20;

/**
 * `hash.update(text)` (UTF-8), a slice of at most `slice` code units at a
 * time. Node encodes a string into one buffer before hashing it; a buffer of
 * tens of megabytes is fresh memory from the system each time, and where a
 * page fault is dear (a virtual machine) a 12.8 MB text took 50 ms to hash
 * against 9 ms in 1 MB slices. A slice never ends between the two halves of
 * a surrogate pair, so the bytes hashed are exactly the whole string's.
 */
export function updateWithText(hash: Hash, text: string, slice = TEXT_SLICE): Hash {
  if (text.length <= slice) return hash.update(text);
  for (let at = 0; at < text.length;) {
    let end = Math.min(at + slice, text.length);
    // Never between the halves of a pair: one code unit less, or one more when the slice is the high half alone.
    if (end < text.length && isHigh(text.charCodeAt(end - 1)) && isLow(text.charCodeAt(end))) end += end - 1 > at ? -1 : 1;
    hash.update(text.slice(at, end));
    at = end;
  }
  return hash;
}

const isHigh = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;

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
