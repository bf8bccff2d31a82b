/**
 * Exact token counts with js-tiktoken, fast enough for a 100k-file monorepo.
 *
 * tiktoken first splits text with its pre-tokenizer regex and then runs BPE
 * inside each piece, never across pieces, so a text's count is the sum of its
 * pieces' counts. Pieces repeat heavily (words, indentation, punctuation), so
 * each distinct piece is encoded once and remembered; whole texts are also
 * memoised by content hash, and a long text is counted paragraph by paragraph
 * where its encoding's pieces allow (token-seams.ts). Tests check the result
 * against encode().length.
 */
import { createRequire } from 'node:module';
import type { Tiktoken, TiktokenBPE, TiktokenEncoding } from 'js-tiktoken/lite';
import { sha256Hex } from '../util/hash.js';
import { cutsAtSeams, paragraphsOf } from './token-seams.js';
import { encoderFor } from './rank-table.js';

export interface TokenCounter {
  readonly encoding: string;
  count(text: string): number;
}

/**
 * The encodings rulec counts with, each loaded on first use only: a rank
 * table is 0.5–2.3 MB of JavaScript, so loading all four cost every command,
 * even `--help`, about 0.3 s. require() keeps counting synchronous.
 */
export const ENCODINGS = ['o200k_base', 'cl100k_base', 'p50k_base', 'r50k_base'] as const;
const require = createRequire(import.meta.url);

function loadRanks(encoding: string): TiktokenBPE | undefined {
  if (!(ENCODINGS as readonly string[]).includes(encoding)) return undefined;
  return require(`js-tiktoken/ranks/${encoding}`) as TiktokenBPE;
}

interface Engine {
  encoder: Tiktoken;
  splitter: RegExp;
  pieces: Map<string, number>;
  /** Whole texts counted, keyed by the text (short) or its sha256. */
  texts: Map<string, number>;
  /** While a build keeps a ledger (startLedger): every sha256-keyed count it asked for. */
  ledger: Map<string, number> | null;
  /** Whether this encoding's texts may be cut into paragraphs (token-seams.ts). */
  seams: boolean;
  /** Paragraphs of long texts counted (each its own copy); `segmentChars` is their total length. */
  segments: Map<string, number>;
  segmentChars: number;
}

/**
 * How many whole-text counts an engine remembers before it starts over. A
 * worker lives across builds; agent profiles count the same file once per
 * directory that loads it, and many directories assemble the same text.
 */
const MAX_REMEMBERED_TEXTS = 100_000;

const engines = new Map<string, Engine>();
/** Whether engines keep a ledger (between startLedger and takeLedger); one made meanwhile starts with one. */
let ledgerOn = false;
/** While captureCounts runs: its encoding, and the digest-keyed counts asked for in it. */
let capture: { encoding: string; digests: Set<string> } | null = null;

function engine(encoding: string): Engine {
  let e = engines.get(encoding);
  if (!e) {
    const ranks = loadRanks(encoding);
    if (!ranks) throw new Error(`unknown tokenizer ${encoding}`);
    e = { encoder: encoderFor(ranks), splitter: new RegExp(ranks.pat_str, 'gu'), pieces: new Map(), texts: new Map(), ledger: ledgerOn ? new Map() : null,
      seams: cutsAtSeams(ranks.pat_str), segments: new Map(), segmentChars: 0 };
    engines.set(encoding, e);
  }
  return e;
}

/**
 * Pieces longer than this are counted in chunks of this many code units.
 * Byte-pair merging is quadratic in a piece's length, so one adversarial file
 * (thousands of 2,000-space indents) could stall a build for minutes. Prose
 * never has pieces this long (words, numbers and punctuation runs are short);
 * for a longer one — a 300-space run, a 400-character '=====' rule — the
 * chunked count may differ from tiktoken's by a token or so.
 */
export const MAX_EXACT_PIECE = 256;

/** The count of `text` as tiktoken's encode() gives it, special tokens read as plain text; remembered by content. */
export function countTokens(encoding: TiktokenEncoding | string, text: string): number {
  const e = engine(encoding);
  if (text.length === 0) return 0;
  const key = text.length < 64 ? text : sha256Hex(text);
  if (capture !== null && key.length === 64 && capture.encoding === encoding) capture.digests.add(key);
  let total = e.texts.get(key);
  if (total !== undefined) {
    if (e.ledger !== null && key.length === 64) e.ledger.set(key, total);
    return total;
  }
  total = e.seams && text.length >= SEGMENTED_FROM ? segmentedCount(e, text) : piecesCount(e, text);
  if (e.texts.size >= MAX_REMEMBERED_TEXTS) e.texts.clear();
  e.texts.set(key === text ? ownCopy(text) : key, total);
  if (e.ledger !== null && key.length === 64) e.ledger.set(key, total);
  return total;
}

/** The sum of the counts of the pre-tokenizer's pieces of `text`. */
function piecesCount(e: Engine, text: string): number {
  let total = 0;
  for (const m of text.matchAll(e.splitter)) {
    const piece = m[0];
    if (piece.length <= MAX_EXACT_PIECE) total += pieceCount(e, piece);
    else for (let i = 0; i < piece.length; i += MAX_EXACT_PIECE) total += pieceCount(e, piece.slice(i, i + MAX_EXACT_PIECE));
  }
  return total;
}

/** Texts at least this long are counted by paragraphs. */
export const SEGMENTED_FROM = 2048;
/**
 * Shorter paragraphs are counted, not looked up; longer ones are keyed by their text, copied when
 * stored (ownCopy: a kept slice would keep its whole text alive), which costs less than a sha256.
 */
const REMEMBERED_SEGMENT = 64;
/** The total length of the paragraphs remembered per encoding before starting over. */
const MAX_SEGMENT_CHARS = 16 * 1024 * 1024;

/**
 * A long text's count as the sum of its paragraphs' (token-seams.ts), each remembered: agent
 * profiles count the context each directory assembles, mostly the same files in other company,
 * so most paragraphs have been counted before.
 */
function segmentedCount(e: Engine, text: string): number {
  const parts = paragraphsOf(text);
  // No seam: the text is its own paragraph, and the caller remembers it whole.
  if (parts.length === 1) return piecesCount(e, text);
  let total = 0;
  for (const part of parts) total += segmentCount(e, part);
  return total;
}

function segmentCount(e: Engine, segment: string): number {
  if (segment.length < REMEMBERED_SEGMENT) return piecesCount(e, segment);
  // V8 hashes a string over 16,383 code units by its length alone: such paragraphs of one length would share a bucket.
  const key = segment.length < 16_384 ? segment : sha256Hex(segment);
  let n = e.segments.get(key);
  if (n === undefined) {
    n = piecesCount(e, segment);
    if (e.segmentChars + segment.length > MAX_SEGMENT_CHARS) {
      e.segments.clear();
      e.segmentChars = 0;
    }
    e.segments.set(key === segment ? ownCopy(segment) : key, n);
    e.segmentChars += key.length;
  }
  return n;
}

/**
 * Token counts by text, as the build cache keeps them (src/cache): encoding →
 * sha256 hex of a text → its count. Only texts of 64 code units or more are
 * keyed by digest; shorter ones cost less to count than to look up on disk.
 */
export type TokenCounts = Map<string, Map<string, number>>;

/**
 * Remember `known` as counted (an earlier build's counts of the same texts,
 * by content digest) and start a ledger of every digest-keyed count asked
 * for from now on, known or new: what the next build's cache should keep.
 */
export function startLedger(known: TokenCounts): void {
  ledgerOn = true;
  for (const [encoding, counts] of known) {
    const e = (ENCODINGS as readonly string[]).includes(encoding) ? engine(encoding) : null;
    if (!e) continue;
    if (e.texts.size + counts.size > MAX_REMEMBERED_TEXTS) e.texts.clear();
    for (const [digest, n] of counts) e.texts.set(digest, n);
  }
  for (const e of engines.values()) e.ledger = new Map();
}

/**
 * `compute()`, and the digests of the texts it counted in `encoding` (the digest-keyed ones, those
 * a ledger keeps). Captures do not nest: an inner one would hide its counts from the outer.
 */
export function captureCounts<T>(encoding: string, compute: () => T): { value: T; digests: string[] } {
  if (capture !== null) throw new Error('captureCounts: a capture is already open');
  capture = { encoding, digests: new Set() };
  try {
    const value = compute();
    return { value, digests: [...capture.digests] };
  } finally {
    capture = null;
  }
}

/**
 * Record in the ledger the counts of these digests that the engine knows (an earlier build's,
 * given to startLedger): what an outcome reused without counting again asked for when it was
 * computed, so the next build's cache still holds them. Unknown digests are left out.
 */
export function keepCounted(encoding: string, digests: Iterable<string>): void {
  const e = engines.get(encoding);
  if (!e || e.ledger === null) return;
  for (const d of digests) {
    const n = e.texts.get(d);
    if (n !== undefined) e.ledger.set(d, n);
  }
}

/** The ledger since startLedger (empty encodings left out); recording stops. */
export function takeLedger(): TokenCounts {
  const out: TokenCounts = new Map();
  for (const [encoding, e] of engines) {
    if (e.ledger !== null && e.ledger.size > 0) out.set(encoding, e.ledger);
    e.ledger = null;
  }
  ledgerOn = false;
  return out;
}

/**
 * Forget every whole text counted (the piece cache stays): for measuring the
 * counting itself, which the cost tests time on the same text again and again.
 */
export function forgetCountedTexts(): void {
  for (const e of engines.values()) {
    e.texts.clear();
    e.segments.clear();
    e.segmentChars = 0;
  }
}

function pieceCount(e: Engine, piece: string): number {
  let n = e.pieces.get(piece);
  if (n === undefined) {
    n = e.encoder.encode(piece, [], []).length;
    if (e.pieces.size < 2_000_000) e.pieces.set(ownCopy(piece), n);
  }
  return n;
}

/**
 * `s` as a string of its own. A slice of 13 code units or more (a regex match, a paragraph, a
 * caller's substring) keeps the whole text it was cut from alive; the memos outlive every text
 * (in a worker, every build), so a key must not hold on to one. Concatenating and cutting again
 * copies it.
 */
function ownCopy(s: string): string {
  return s.length < 13 ? s : ` ${s}`.slice(1);
}

/**
 * A counter for one encoding; `known` pre-seeds it with counts computed
 * elsewhere (the token worker) for exactly these texts.
 */
export function tokenCounter(encoding: TiktokenEncoding | string, known?: ReadonlyMap<string, number>): TokenCounter {
  return {
    encoding,
    count: (text: string): number => known?.get(text) ?? countTokens(encoding, text),
  };
}

/** The reference count, for tests: js-tiktoken's own encode(). */
export function encodeLength(encoding: TiktokenEncoding | string, text: string): number {
  return engine(encoding).encoder.encode(text, [], []).length;
}
