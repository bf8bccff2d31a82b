/**
 * How the repository's files are read: from the work tree through
 * readConfined(), or from a commit's tree (src/source), which confines its own
 * reads (a link out of the tree is refused as readConfined refuses it). The
 * reader is an input of the stages that read — discovery and import
 * following — never part of their results.
 */
import type { RepoSource } from '../source/repo-source.js';
import { readConfined, type ReadOutcome } from '../confined/read-confined.js';
import type { ResolveMemo } from '../confined/resolve-beneath.js';

export type RepoReader = (rel: string, id: string, maxBytes: number) => ReadOutcome;

export function repoReader(rootReal: string, source: RepoSource | null): RepoReader {
  if (source) return (rel, id, max) => source.read(rel, id, max);
  // One memo of looked-up directories per reader (resolve-beneath.ts): a directory is lstat'ed once, not once per file below it.
  const memo: ResolveMemo = new Map();
  return (rel, id, max) => readConfined(rootReal, rel, id, max, memo);
}

/**
 * True when a read went through a link to a path that is no input (rulec's own output, an
 * excluded path): such a file is no input however it is reached, as the path itself would not be.
 * Discovery and import following both ask it.
 */
export function reachedExcluded(read: ReadOutcome, rel: string, isExcluded: (rel: string) => boolean): boolean {
  return read.ok && read.realRel !== rel && isExcluded(read.realRel);
}
