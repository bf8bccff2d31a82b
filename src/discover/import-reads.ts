/**
 * The reads import following made, as data: for each file it asked a root
 * for, what came back — the sha256 of the bytes and the real path, "missing",
 * or the refusal. Parsing, imports and everything after them are a function
 * of the instruction files' bytes and of these answers; so asking the same
 * questions again (rereadImports) and getting the same answers proves that
 * import following would find what it found before, without parsing a file
 * (the build memo, src/cache/build-memo.ts).
 */
import type { Root } from '../types.js';
import { readConfined, type ReadOutcome } from '../confined/read-confined.js';
import { sha256Hex } from '../util/hash.js';
import { reachedExcluded, type RepoReader } from './repo-reader.js';
import { isBundleOutput } from './output-dir.js';

export interface ImportRead {
  root: Root;
  rel: string;
  id: string;
  /** `sha256:<hex>` of the bytes read, `missing`, or `refused <code>: <message>`. */
  outcome: string;
  /** The path read resolved to (through links), when the read succeeded. */
  real: string | null;
}

export function importRead(root: Root, rel: string, id: string, read: ReadOutcome): ImportRead {
  const outcome = read.ok ? `sha256:${sha256Hex(read.bytes)}`
    : read.missing ? 'missing' : `refused ${read.diagnostic.code}: ${read.diagnostic.message}`;
  return { root, rel, id, outcome, real: read.ok ? read.realRel : null };
}

export interface Readers {
  readRepo: RepoReader;
  managedReal: string | null;
  maxBytes: number;
  /** The repository's exclusions (exclusions.ts excluder): rulec's own output and `discover.exclude`. */
  isExcluded: (rel: string) => boolean;
}

/** Ask each question of `reads` again; the answers, in the same shape. */
export function rereadImports(reads: readonly Pick<ImportRead, 'root' | 'rel' | 'id'>[], r: Readers): ImportRead[] {
  return reads.map(({ root, rel, id }) => importRead(root, rel, id, readOf(root, rel, id, r)));
}

const MISSING: ReadOutcome = { ok: false, missing: true };

/**
 * The read import following makes for a file of `root` (it never reads the user root; an excluded
 * path it never asks for). Through a link the file read is the link's target: one in rulec's own
 * output (the build cache, a bundle) or an excluded path is no input however it is reached, and
 * reads as missing.
 */
export function readOf(root: Root, rel: string, id: string, r: Readers): ReadOutcome {
  const excluded = root === 'repo' ? r.isExcluded : isBundleOutput;
  const read = root === 'repo' ? r.readRepo(rel, id, r.maxBytes)
    : root === 'managed' && r.managedReal ? readConfined(r.managedReal, rel, id, r.maxBytes) : MISSING;
  return reachedExcluded(read, rel, excluded) ? MISSING : read;
}
