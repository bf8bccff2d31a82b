/**
 * How the repository's files are read: from the work tree through
 * readConfined(), or from a commit's tree (src/source), which confines its own
 * reads (a link out of the tree is refused as readConfined refuses it). The
 * reader is an input of the stages that read — discovery and import
 * following — never part of their results.
 */
import type { RepoSource } from '../source/repo-source.js';
import { readConfined, type ReadOutcome } from '../confined/read-confined.js';

export type RepoReader = (rel: string, id: string, maxBytes: number) => ReadOutcome;

export function repoReader(rootReal: string, source: RepoSource | null): RepoReader {
  return source ? (rel, id, max) => source.read(rel, id, max) : (rel, id, max) => readConfined(rootReal, rel, id, max);
}
