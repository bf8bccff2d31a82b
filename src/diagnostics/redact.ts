/**
 * Redaction: a detected secret never leaves rulec except inside the rendered
 * context itself (context/*.md, attachments/*.md, `explain --text`), which is
 * the agent's input. The secrets a build finds (value + where) form a
 * Redactions set carried in the compile result; every output surface — the
 * diagnostics and conflict events of the result, the manifest built from
 * them, the text and JSON reporters, code frames, explain — passes through
 * `redact`, which masks the secret material with `*`, keeping only a public
 * prefix (`ghp_****…`).
 *
 * redact(text) masks, line by line:
 *   1. every exact occurrence of a secret (or of one line of a multi-line
 *      secret such as a key body);
 *   2. every occurrence that survived a transformation — lower-cased, with
 *      punctuation or emphasis stripped, whitespace collapsed — found by
 *      comparing the letters and digits alone (the "skeleton");
 *   3. the stub of a secret cut short by a truncation (`ghp_ab12...`): a run
 *      of letters and digits next to `...` or `…` that is the start (or end)
 *      of a secret.
 * maskSourceLine additionally masks by position (the site's range), for code
 * frames, so the caret still points at the same columns.
 */
import type { Span } from '../types.js';

export interface SecretSite {
  /** The file id the secret was found in. */
  file: string;
  /** The lint code that detected it (RC60xx). */
  code: string;
  /** Where the secret material lies: 1-based, end exclusive, possibly over several lines. */
  range: Span;
  value: string;
  /** Leading characters of the value that are a public prefix, left visible. */
  keep: number;
}

interface Piece {
  exact: string;
  /** Lower-cased letters and digits of `exact`. */
  skeleton: string;
  keep: number;
}

export interface Redactions {
  readonly sites: readonly SecretSite[];
  readonly pieces: readonly Piece[];
}

export const NO_REDACTIONS: Redactions = { sites: [], pieces: [] };

/** Pieces shorter than this are matched exactly and only between non-alphanumerics. */
const MIN_LOOSE = 8;
/** A truncated stub must keep at least this many letters and digits of a secret to be masked. */
const MIN_STUB = 6;
const MASK = '*';

const skeletonOf = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]/g, '');

export function redactionsOf(sites: readonly SecretSite[]): Redactions {
  if (sites.length === 0) return NO_REDACTIONS;
  const byExact = new Map<string, Piece>();
  for (const site of sites) {
    site.value.split(/\s+|\\[nr]/).forEach((part, i) => {
      const exact = part.replace(/^["',]+|["',]+$/g, '');
      if (exact.length < 4 || byExact.has(exact)) return;
      byExact.set(exact, { exact, skeleton: skeletonOf(exact), keep: i === 0 ? Math.min(site.keep, Math.floor(exact.length / 3)) : 0 });
    });
  }
  const pieces = [...byExact.values()].sort((a, b) => b.exact.length - a.exact.length);
  return { sites, pieces };
}

/** Mask every secret of the set in `text` (see the module comment); text without secrets comes back unchanged. */
export function redact(text: string, r: Redactions): string {
  if (r.pieces.length === 0 || text === '') return text;
  return text.split('\n').map((line) => redactLine(line, r.pieces)).join('\n');
}

type Mask = [start: number, end: number, keep: number];

function redactLine(line: string, pieces: readonly Piece[]): string {
  const masks: Mask[] = [];
  for (const p of pieces) exactMasks(line, p, masks);
  skeletonMasks(line, pieces, masks);
  return applyMasks(line, masks);
}

const isAlnum = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

function exactMasks(line: string, p: Piece, masks: Mask[]): void {
  for (let i = line.indexOf(p.exact); i !== -1; i = line.indexOf(p.exact, i + 1)) {
    const end = i + p.exact.length;
    const bounded = !isAlnum(line.charCodeAt(i - 1)) && !isAlnum(line.charCodeAt(end));
    if (p.exact.length >= MIN_LOOSE || bounded) masks.push([i, end, p.keep]);
  }
}

/** Steps 2 and 3: compare letters and digits only, mapping matches back to the line's offsets. */
function skeletonMasks(line: string, pieces: readonly Piece[], masks: Mask[]): void {
  const loose = pieces.filter((p) => p.skeleton.length >= MIN_LOOSE);
  if (loose.length === 0) return;
  let skel = '';
  const at: number[] = [];
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (isAlnum(c)) {
      skel += String.fromCharCode(c >= 65 && c <= 90 ? c + 32 : c);
      at.push(i);
    }
  }
  const range = (from: number, to: number): Mask => [at[from]!, at[to - 1]! + 1, 0];
  const exact = masks.slice();
  const covered = ([s, e]: Mask): boolean => exact.some(([xs, xe]) => xs <= s && e <= xe);
  for (const p of loose) {
    for (let i = skel.indexOf(p.skeleton); i !== -1; i = skel.indexOf(p.skeleton, i + 1)) {
      const m = range(i, i + p.skeleton.length);
      if (!covered(m)) masks.push(m);
    }
  }
  let next = 0;
  for (const cut of truncationMarks(line)) {
    while (next < at.length && at[next]! < cut.start) next++;
    for (const p of loose) {
      const stub = next > 0 && cut.start - at[next - 1]! <= 2 ? stubBefore(skel, next, p.skeleton) : 0;
      if (stub > 0) masks.push(range(next - stub, next));
      const tail = next < at.length && at[next]! - cut.end <= 1 ? stubAfter(skel, next, p.skeleton) : 0;
      if (tail > 0) masks.push(range(next, next + tail));
    }
  }
}

function* truncationMarks(line: string): Generator<{ start: number; end: number }> {
  const re = /\.{3}|…/g;
  for (let m = re.exec(line); m; m = re.exec(line)) yield { start: m.index, end: m.index + m[0].length };
}

/** Length of the longest stub (≥ MIN_STUB) that ends at `end` in `skel` and starts the secret `p`. */
function stubBefore(skel: string, end: number, p: string): number {
  for (let len = Math.min(p.length - 1, end); len >= MIN_STUB; len--) {
    const i = end - len;
    if (skel.charCodeAt(i) === p.charCodeAt(0) && skel.startsWith(p.slice(0, len), i)) return len;
  }
  return 0;
}

/** Length of the longest stub (≥ MIN_STUB) that starts at `start` in `skel` and ends the secret `p`. */
function stubAfter(skel: string, start: number, p: string): number {
  for (let len = Math.min(p.length - 1, skel.length - start); len >= MIN_STUB; len--) {
    if (p.endsWith(skel.slice(start, start + len))) return len;
  }
  return 0;
}

function applyMasks(line: string, masks: Mask[]): string {
  if (masks.length === 0) return line;
  const out = line.split('');
  for (const [start, end, keep] of masks) {
    for (let i = start + keep; i < end; i++) out[i] = MASK;
  }
  return out.join('');
}

/**
 * (A slice of) one line of a source file, for a code frame: the secret sites
 * on that line are masked by position — same length, so columns stay put —
 * then by value. `offset` is the code unit of the line where `line` starts.
 */
export function maskSourceLine(file: string, lineNo: number, line: string, r: Redactions, offset = 0): string {
  if (r.sites.length === 0) return line;
  const masks: Mask[] = [];
  for (const s of r.sites) {
    if (s.file !== file || lineNo < s.range.start.line || lineNo > s.range.end.line) continue;
    const from = (lineNo === s.range.start.line ? s.range.start.col - 1 : 0) - offset;
    const to = (lineNo === s.range.end.line ? s.range.end.col - 1 - offset : line.length);
    const keep = lineNo === s.range.start.line ? s.keep : 0;
    if (to <= 0 || from >= line.length) continue;
    masks.push([Math.max(0, from), Math.min(to, line.length), Math.max(0, keep + Math.min(0, from))]);
  }
  return redact(applyMasks(line, masks), r);
}

/** Every string inside a JSON-like value (plain objects and arrays), its keys too, redacted; the value itself when nothing changes. */
export function redactDeep<T>(value: T, r: Redactions): T {
  if (r.pieces.length === 0) return value;
  return deep(value, r) as T;
}

function deep(value: unknown, r: Redactions): unknown {
  if (typeof value === 'string') return redact(value, r);
  if (Array.isArray(value)) {
    const mapped = value.map((v) => deep(v, r));
    return mapped.every((v, i) => v === value[i]) ? value : mapped;
  }
  const proto = value !== null && typeof value === 'object' ? Object.getPrototypeOf(value) : undefined;
  if (proto === Object.prototype || proto === null) {
    // Keys come from paths (the manifest's files by id, its index by directory): masked like any other
    // string, and defined (a `__proto__` key stays a key) on an object of the same prototype. Two keys
    // that differ only inside a secret mask alike: the later one gets a `#n` suffix, so no entry is lost.
    let changed = false;
    const out = Object.create(proto) as Record<string, unknown>;
    for (const [k, v] of Object.entries(value as object)) {
      const mapped = deep(v, r);
      const masked = redact(k, r);
      let key = masked;
      for (let n = 2; Object.prototype.hasOwnProperty.call(out, key); n++) key = `${masked}#${n}`;
      Object.defineProperty(out, key, { value: mapped, enumerable: true, writable: true, configurable: true });
      if (mapped !== v || key !== k) changed = true;
    }
    return changed ? out : value;
  }
  return value;
}
