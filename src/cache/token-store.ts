/**
 * Token counts as the cache file `tokens` holds them (binary, so 100,000
 * counts are 3.6 MB, read in milliseconds): for each encoding, sorted by name,
 *
 *   <encoding name, UTF-8> NUL <n: uint32 LE> n × (<sha256 of the text: 32 bytes> <count: uint32 LE>)
 *
 * entries sorted by digest, so the same counts always give the same bytes.
 * A count belongs to a text's content (its sha256) and an encoding, never to
 * a file or a policy: an edited file's old text is simply not asked for.
 * decodeTokenCounts() returns null for anything else (the file is then
 * ignored as damaged), never throws.
 */
import type { TokenCounts } from '../validate/token-count.js';
import { compareCodeUnits } from '../util/compare.js';
import { HEX64 } from './cache-file.js';

/** Counts kept per build at most; a build that uses more keeps the first ones by digest. */
export const MAX_TOKEN_ENTRIES = 1_000_000;
const ENTRY = 36;

export function encodeTokenCounts(counts: TokenCounts): Buffer {
  const chunks: Buffer[] = [];
  let budget = MAX_TOKEN_ENTRIES;
  for (const encoding of [...counts.keys()].sort(compareCodeUnits)) {
    const digests = [...(counts.get(encoding) ?? new Map<string, number>())]
      .filter(([d, n]) => HEX64.test(d) && Number.isInteger(n) && n >= 0 && n <= 0xffffffff)
      .sort((a, b) => compareCodeUnits(a[0], b[0]))
      .slice(0, budget);
    budget -= digests.length;
    const name = Buffer.from(`${encoding}\0`, 'utf8');
    const body = Buffer.alloc(4 + digests.length * ENTRY);
    body.writeUInt32LE(digests.length, 0);
    digests.forEach(([digest, n], i) => {
      body.write(digest, 4 + i * ENTRY, 32, 'hex');
      body.writeUInt32LE(n, 4 + i * ENTRY + 32);
    });
    chunks.push(name, body);
  }
  return Buffer.concat(chunks);
}

export function decodeTokenCounts(body: Buffer): TokenCounts | null {
  const out: TokenCounts = new Map();
  let at = 0;
  let total = 0;
  while (at < body.length) {
    const nul = body.indexOf(0, at);
    if (nul < 0 || nul - at > 64 || nul + 5 > body.length) return null;
    const encoding = body.toString('utf8', at, nul);
    const n = body.readUInt32LE(nul + 1);
    at = nul + 5;
    total += n;
    if (out.has(encoding) || total > MAX_TOKEN_ENTRIES || at + n * ENTRY > body.length) return null;
    const counts = new Map<string, number>();
    for (let i = 0; i < n; i++, at += ENTRY) counts.set(body.toString('hex', at, at + 32), body.readUInt32LE(at + 32));
    out.set(encoding, counts);
  }
  return out;
}
