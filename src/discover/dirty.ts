/**
 * Which inputs differ from what git holds at HEAD, as data. Discovery keeps
 * the index facts it already has (`HeadIndex`) so that files read later
 * (imports) are judged by the same rule.
 */
import { createHash } from 'node:crypto';
import type { SourceFile } from '../types.js';

export interface HeadIndex {
  /** Blob id of each tracked path in the index. */
  blobs: Map<string, string>;
  /** Paths staged with changes against HEAD. */
  staged: Set<string>;
}

/**
 * The ids of the repo files that are dirty: untracked, staged with changes, or
 * whose blob id differs from the index. A symlink is judged by the file it
 * points to; without git (`head` null) nothing is dirty.
 */
export function dirtyIds(files: readonly SourceFile[], head: HeadIndex | null): string[] {
  if (head === null) return [];
  return files.filter((f) => isDirty(f, head)).map((f) => f.id);
}

function isDirty(file: SourceFile, head: HeadIndex): boolean {
  if (file.root !== 'repo' || file.linkTarget !== undefined) return false;
  const blob = head.blobs.get(file.rel);
  if (blob === undefined || head.staged.has(file.rel)) return true;
  return gitBlobId(file.bytes) !== blob;
}

function gitBlobId(bytes: Uint8Array): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}
