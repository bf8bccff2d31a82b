/**
 * What each glob matched, as the cache file `globs` holds it: JSON,
 *
 *   {"listing":"<sha256 of the path listing>","globs":[["<glob>",[first, gap, gap, …]], …],
 *    "together":null | {"key":"<sha256>","groups":[[[attachment, …],["<dir>", …],<paths>], …]}}
 *
 * globs sorted by code units, each one's path indices ascending and written as
 * the first index and then the gaps between neighbours (small numbers: the
 * file is about a third of the size of the indices written out), so the same
 * memo always gives the same bytes; the co-attached sets as the build found
 * them (already in their order). decodeGlobMemo() returns null for anything
 * else (the file is then ignored as damaged), never throws: 64-hex digests,
 * each glob once, a first index ≥ 0 and gaps ≥ 1, all safe integers; sets of
 * two or more ascending attachment indices, directories as strings, a path
 * count ≥ 1. Whether the indices fit the listing and the attachments is the
 * build's to check (glob-memo.ts).
 */
import type { GlobMemo } from '../resolve/glob-memo.js';
import type { CoAttachment } from '../resolve/co-attachment.js';
import { compareCodeUnits } from '../util/compare.js';
import { gapsOf, HEX64, jsonOf, runningSums } from './cache-file.js';

export function encodeGlobMemo(memo: GlobMemo): Buffer {
  const globs = [...memo.matches].sort((a, b) => compareCodeUnits(a[0], b[0]))
    .map(([glob, indices]) => [glob, gapsOf(indices)]);
  const together = memo.together && { key: memo.together.key, groups: memo.together.groups.map((g) => [g.attachments, g.dirs, g.paths]) };
  return Buffer.from(JSON.stringify({ listing: memo.listing, globs, together }), 'utf8');
}

export function decodeGlobMemo(body: Buffer): GlobMemo | null {
  const value = jsonOf(body);
  if (value === undefined) return null;
  const v = (typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {}) as Record<string, unknown>;
  if (Object.keys(v).length !== 3 || typeof v.listing !== 'string' || !HEX64.test(v.listing) || !Array.isArray(v.globs)) return null;
  const matches = new Map<string, number[]>();
  for (const entry of v.globs as unknown[]) {
    if (!Array.isArray(entry) || entry.length !== 2 || typeof entry[0] !== 'string' || matches.has(entry[0]) || !Array.isArray(entry[1])) return null;
    const indices = runningSums(entry[1] as unknown[]);
    if (indices === null) return null;
    matches.set(entry[0], indices);
  }
  const together = v.together === null ? null : togetherOf(v.together);
  if (together === undefined) return null;
  return { listing: v.listing, matches, together };
}

/** The co-attached sets as written, or undefined when they are not. */
function togetherOf(value: unknown): GlobMemo['together'] | undefined {
  const t = (typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {}) as Record<string, unknown>;
  if (Object.keys(t).length !== 2 || typeof t.key !== 'string' || !HEX64.test(t.key) || !Array.isArray(t.groups)) return undefined;
  const groups: CoAttachment[] = [];
  for (const g of t.groups as unknown[]) {
    if (!Array.isArray(g) || g.length !== 3) return undefined;
    const [attachments, dirs, paths] = g as unknown[];
    const ascending = Array.isArray(attachments) && attachments.length >= 2
      && attachments.every((a, i) => Number.isSafeInteger(a) && (a as number) >= (i === 0 ? 0 : (attachments[i - 1] as number) + 1));
    if (!ascending || !Array.isArray(dirs) || !dirs.every((d) => typeof d === 'string') || !Number.isSafeInteger(paths) || (paths as number) < 1) return undefined;
    groups.push({ attachments: attachments as number[], dirs: dirs as string[], paths: paths as number });
  }
  return { key: t.key, groups };
}
