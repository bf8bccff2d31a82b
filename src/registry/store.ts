/**
 * The one interface every registry store implements (the local directory
 * here; a git remote and an OCI mirror next), small enough for all three.
 * Every store passes test/registry/store-conformance.test.ts.
 *
 * Contract:
 * - Blobs are content-addressed: putBlob is idempotent; getBlob returns the
 *   bytes stored under a digest, or null. Callers check the digest (blob.ts):
 *   a store is never trusted without a hash.
 * - Indexes are signed envelopes numbered 1, 2, …; every version stays
 *   readable (indexAt), because admitters replay the chain.
 * - casIndex(expect, next) commits index `expect + 1` only if no index
 *   `expect + 1` exists: of any number of concurrent callers with the same
 *   `expect`, exactly one wins. The audit lines that belong to the index travel
 *   with it: a store that can commit both at once does (git); the local store
 *   appends them right after the commit point, and a crash between the two is
 *   repaired from the signed index (audit.ts).
 * - appendAudit(keep, text) keeps the first `keep` bytes of the log and
 *   appends `text` (repairs truncate a torn line this way).
 * - exclusive(fn) runs a writer's read-modify-write alone where the store can
 *   (the local store's lock); safety never depends on it, only on casIndex.
 * - sweep() removes what an interrupted writer left (temp files, a dead
 *   writer's lock) and says what it removed.
 */
export interface IndexHead {
  seq: number;
  bytes: Buffer;
}

export interface Store {
  /** Where the store is, for messages. */
  readonly location: string;
  /** Does a store exist here (already initialised)? */
  exists(): Promise<boolean>;
  /** Create an empty store if there is none. */
  init(): Promise<void>;
  putBlob(bytes: Uint8Array): Promise<string>;
  getBlob(digest: string): Promise<Buffer | null>;
  latestIndex(): Promise<IndexHead | null>;
  indexAt(seq: number): Promise<Buffer | null>;
  casIndex(expectSeq: number, next: { bytes: string; audit: string; auditAt: number }): Promise<boolean>;
  /** The audit log from byte `from`, and the log's total size. */
  readAudit(from?: number): Promise<{ bytes: Buffer; size: number }>;
  appendAudit(keep: number, text: string): Promise<void>;
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
  sweep(): Promise<string[]>;
}
