/**
 * What the agent profiles found, as the cache file `profiles` holds it: JSON,
 *
 *   {"basis":"<sha256 of listing and links>",
 *    "files":[["<path>","<sha256>"|null], …],
 *    "groups":[[first, gap, …], …],
 *    "counts":["<sha256>", …],
 *    "entries":[["<run key>",[first, gap, …],[first, gap, …],[first, gap, …],[bytes,tokens,fits,["<dropped>", …]],
 *                [["RC55xx","<file>",paths,"<detail>"], …]], …]}
 *
 * an entry's three index lists being the files it read, the groups it used and
 * the texts it counted (profiles/profile-memo.ts), ascending, written as gaps
 * like `globs`.
 * decodeProfileMemo() returns null for anything else (the file is then
 * ignored as damaged), never throws: 64-hex digests and keys, each key and
 * path once, indices inside the tables, counts that are safe integers ≥ 0,
 * and findings only of the codes profiles report.
 */
import type { MemoFinding, ProfileFit, ProfileMemo, ProfileMemoEntry } from '../profiles/profile-memo.js';
import { RUN_FINDING_CODES } from '../profiles/findings.js';
import { gapsOf, HEX64, jsonOf, runningSums } from './cache-file.js';

const FINDING_CODES = new Set(RUN_FINDING_CODES);

export function encodeProfileMemo(memo: ProfileMemo): Buffer {
  const entries = memo.entries.map(([key, e]) => [key, gapsOf(e.files), gapsOf(e.groups), gapsOf(e.counts), [e.fit.bytes, e.fit.tokens, e.fit.fits, e.fit.dropped],
    e.findings.map((f) => [f.code, f.file, f.paths, f.detail])]);
  return Buffer.from(JSON.stringify({ basis: memo.basis, files: memo.files, groups: memo.groups.map(gapsOf), counts: memo.counts, entries }), 'utf8');
}

export function decodeProfileMemo(body: Buffer): ProfileMemo | null {
  const value = jsonOf(body);
  const v = (typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {}) as Record<string, unknown>;
  if (Object.keys(v).length !== 5 || typeof v.basis !== 'string' || !(v.basis === '' || HEX64.test(v.basis))
    || !Array.isArray(v.files) || !Array.isArray(v.groups) || !Array.isArray(v.counts) || !Array.isArray(v.entries)) return null;
  const counts = v.counts as unknown[];
  if (!counts.every((d) => typeof d === 'string' && HEX64.test(d)) || new Set(counts).size !== counts.length) return null;
  const files = filesOf(v.files);
  if (files === null) return null;
  const groups: number[][] = [];
  for (const g of v.groups as unknown[]) {
    const indices = Array.isArray(g) ? within(runningSums(g), files.length) : null;
    if (indices === null) return null;
    groups.push(indices);
  }
  const entries: [string, ProfileMemoEntry][] = [];
  const keys = new Set<string>();
  for (const e of v.entries as unknown[]) {
    if (!Array.isArray(e) || e.length !== 6) return null;
    const [key, read, used, counted, fit, found] = e as unknown[];
    if (typeof key !== 'string' || !HEX64.test(key) || keys.has(key) || !Array.isArray(read) || !Array.isArray(used) || !Array.isArray(counted)) return null;
    const entry = { files: within(runningSums(read), files.length), groups: within(runningSums(used), groups.length),
      counts: within(runningSums(counted), counts.length), fit: fitOf(fit), findings: findingsOf(found) };
    if (entry.files === null || entry.groups === null || entry.counts === null || entry.fit === null || entry.findings === null) return null;
    keys.add(key);
    entries.push([key, entry as ProfileMemoEntry]);
  }
  return { basis: v.basis, files, groups, counts: counts as string[], entries };
}

function filesOf(value: unknown[]): [string, string | null][] | null {
  const seen = new Set<string>();
  const out: [string, string | null][] = [];
  for (const f of value) {
    if (!Array.isArray(f) || f.length !== 2 || typeof f[0] !== 'string' || seen.has(f[0]) || !(f[1] === null || (typeof f[1] === 'string' && HEX64.test(f[1])))) return null;
    seen.add(f[0]);
    out.push([f[0], f[1] as string | null]);
  }
  return out;
}

/** `indices` when each is below `size`. */
function within(indices: number[] | null, size: number): number[] | null {
  return indices !== null && indices.every((i) => i < size) ? indices : null;
}

const count = (x: unknown): x is number => Number.isSafeInteger(x) && (x as number) >= 0;

function fitOf(value: unknown): ProfileFit | null {
  if (!Array.isArray(value) || value.length !== 4) return null;
  const [bytes, tokens, fits, dropped] = value as unknown[];
  if (!count(bytes) || !count(tokens) || typeof fits !== 'boolean' || !Array.isArray(dropped) || !dropped.every((d) => typeof d === 'string')) return null;
  return { bytes, tokens, fits, dropped: dropped as string[] };
}

function findingsOf(value: unknown): MemoFinding[] | null {
  if (!Array.isArray(value)) return null;
  const out: MemoFinding[] = [];
  for (const f of value as unknown[]) {
    if (!Array.isArray(f) || f.length !== 4) return null;
    const [code, file, paths, detail] = f as unknown[];
    if (typeof code !== 'string' || !FINDING_CODES.has(code) || typeof file !== 'string' || !count(paths) || typeof detail !== 'string') return null;
    out.push({ code, file, paths, detail });
  }
  return out;
}
