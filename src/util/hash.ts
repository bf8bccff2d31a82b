import { createHash } from 'node:crypto';

/** Hex sha256 of bytes or a UTF-8 string. */
export function sha256Hex(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/** `sha256:<hex>`, the digest form used in manifests and bundle ids. */
export function digestOf(data: Uint8Array | string): string {
  return `sha256:${sha256Hex(data)}`;
}

/** A short, content-derived id: prefix + first 16 hex chars of sha256. */
export function contentId(prefix: string, data: string): string {
  return `${prefix}${sha256Hex(data).slice(0, 16)}`;
}
