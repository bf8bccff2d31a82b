/**
 * js-tiktoken's encoder over a rank table read lazily.
 *
 * The library keys its ranks by a token's bytes in decimal, joined by commas
 * ("104,101,108,108,111"), and its constructor builds all 200,000 keys of
 * o200k up front — through an intermediate object, with a decode table that
 * counting never reads: 1–2.5 s on this machine. Building the same map
 * directly still took 0.3–0.45 s, paid by every process that counts (a small
 * repository's whole build is about a second), and most keys are never asked
 * for.
 *
 * So the table indexes the rank file's base64 tokens as they stand (a split
 * and a map insertion each, about a quarter of decoding them), and turns a
 * key the encoder asks for into base64 on its first lookup, remembering the
 * answer — a rank, or that the bytes are no token, as byte-pair merging asks
 * about many pairs that are none. Encoding stays the library's own code. A
 * test proves the table answers every key of the library's map with its
 * rank, and others with nothing, for every encoding. Should a future
 * js-tiktoken keep its ranks elsewhere, the probe fails and the library's
 * constructor is used.
 */
import { Tiktoken, type TiktokenBPE } from 'js-tiktoken/lite';

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** Remembered lookups before the memo starts over: distinct byte strings grow with hostile input, not with prose. */
const MAX_REMEMBERED = 1 << 20;
/** A remembered miss. */
const NONE = -1;

export class RankTable {
  private readonly byBase64 = new Map<string, number>();
  private memo = new Map<string, number>();

  /**
   * `bpeRanks` holds lines of "! OFFSET TOKEN…", each TOKEN base64 and ranked OFFSET, OFFSET+1, …
   * in order. `remember` bounds the memo (a test makes it small).
   */
  constructor(bpeRanks: string, private readonly remember = MAX_REMEMBERED) {
    for (const line of bpeRanks.split('\n')) {
      const parts = line.split(' ');
      if (parts.length < 3) continue;
      const offset = Number.parseInt(parts[1] as string, 10);
      for (let i = 2; i < parts.length; i++) this.byBase64.set(parts[i] as string, offset + i - 2);
    }
  }

  /** Tokens in the table. */
  get size(): number {
    return this.byBase64.size;
  }

  /** The rank of the token whose bytes `key` lists (decimal, comma-separated), or undefined when they are none. */
  get(key: string): number | undefined {
    let rank = this.memo.get(key);
    if (rank === undefined) {
      rank = this.byBase64.get(base64Of(key)) ?? NONE;
      if (this.memo.size >= this.remember) this.memo = new Map();
      this.memo.set(key, rank);
    }
    return rank === NONE ? undefined : rank;
  }
}

/**
 * Standard padded base64 of the bytes a key lists; '' (no token's) unless every part is a byte in
 * decimal (0–255, no sign, no leading zero). One pass over the key's characters: a miss costs
 * this, and random text misses often.
 */
function base64Of(key: string): string {
  let out = '';
  let group = 0;
  let inGroup = 0;
  let byte = -1;
  for (let i = 0; i <= key.length; i++) {
    const c = i < key.length ? key.charCodeAt(i) : COMMA;
    if (c === COMMA) {
      if (byte < 0) return '';
      group = (group << 8) | byte;
      byte = -1;
      if (++inGroup === 3) {
        out += digits(group, 4);
        group = 0;
        inGroup = 0;
      }
    } else if (c >= ZERO && c <= ZERO + 9 && byte !== 0) {
      byte = byte < 0 ? c - ZERO : byte * 10 + (c - ZERO);
      if (byte > 255) return '';
    } else return '';
  }
  if (inGroup === 1) out += `${digits(group << 16, 2)}==`;
  else if (inGroup === 2) out += `${digits(group << 8, 3)}=`;
  return out;
}

const COMMA = 44;
const ZERO = 48;

/** The first `chars` base64 digits of a 24-bit group. */
function digits(n: number, chars: number): string {
  let s = '';
  for (let k = 0; k < chars; k++) s += BASE64[(n >> (18 - 6 * k)) & 63] ?? '!';
  return s;
}

/** js-tiktoken's encoder for `ranks`, its table a RankTable (see the module comment). */
export function encoderFor(ranks: TiktokenBPE): Tiktoken {
  const encoder = new Tiktoken({ ...ranks, bpe_ranks: '' });
  const slot = encoder as unknown as { rankMap?: unknown };
  if (!(slot.rankMap instanceof Map) || slot.rankMap.size !== 0) return new Tiktoken(ranks);
  const table = new RankTable(ranks.bpe_ranks);
  slot.rankMap = table;
  const probe = encoder.encode('hello', [], []);
  return probe.length === 1 && probe[0] === table.get('104,101,108,108,111') ? encoder : new Tiktoken(ranks);
}
