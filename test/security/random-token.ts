/**
 * Deterministic, uniformly random-looking strings for secret tests: real
 * credentials are uniform over their alphabet (entropy near log2 of its
 * size), so test values must be too, or an entropy floor would reject them
 * for the wrong reason. sha256 of (seed, counter) as the random source.
 */
import { createHash } from 'node:crypto';

export const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function randomToken(length: number, alphabet = ALNUM, seed = 1): string {
  let out = '';
  for (let block = 0; out.length < length; block++) {
    const bytes = createHash('sha256').update(`${seed}:${block}`).digest();
    for (const b of bytes) {
      // Rejection sampling keeps the distribution uniform for any alphabet size.
      if (b < 256 - (256 % alphabet.length) && out.length < length) out += alphabet[b % alphabet.length];
    }
  }
  return out;
}
