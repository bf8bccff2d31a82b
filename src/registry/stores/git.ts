/**
 * The git store (`--store git+URL`): the authoritative store of an
 * organisation's publishers, on any git remote (GitHub, GitLab, a bare
 * repository on a path). Everything lives in one ref, `refs/rulec/registry`,
 * whose commit tree git-layout.ts describes.
 *
 * 1. Reading: `git ls-remote` gives the ref's commit; unless the scratch
 *    repository holds it completely, `git fetch` brings it (only new objects:
 *    the scratch keeps its copy of the ref). Every read of one operation
 *    comes from that one commit, a consistent snapshot.
 * 2. putBlob writes a git blob into the scratch repository; the blobs travel
 *    with the next commit, so an index and the blobs it references land
 *    together or not at all.
 * 3. casIndex and appendAudit build the next commit in-process (its parent is
 *    the snapshot) and push it with `--force-with-lease=<ref>:<snapshot>`: the
 *    remote updates the ref only if it still holds the snapshot — a
 *    compare-and-swap on a ref. A lost race re-reads the ref; casIndex then
 *    reports the loss (the writer re-runs its operation), appendAudit
 *    re-checks and retries. A push the remote refuses (a hook, a protection
 *    rule) is RC7602; an unreachable remote RC7601. Nothing is half-written:
 *    a commit is the index, its audit line and its blobs at once.
 *
 * The scratch repository (git-scratch.ts) is private to rulec, never the
 * user's clone. exclusive() locks it, so the writers of one host take turns;
 * writers on different hosts are kept apart by the compare-and-swap alone.
 */
import { digestOf } from '../../util/hash.js';
import { registryError } from '../errors.js';
import { CatFile, runGit } from '../remote/git-process.js';
import { editTree, writeCommit, writeObject, type TreeEdits } from '../remote/git-objects.js';
import type { IndexHead, Store } from '../store.js';
import { sleep } from './durable.js';
import { AUDIT_CHUNK, blobPath, chunkName, GIT_REF, indexPath, LAYOUT, readSnapshot, type Snapshot } from './git-layout.js';
import { displayUrl, gitRemoteOf, lastLines } from './git-remote.js';
import { ScratchRepo } from './git-scratch.js';

const PUSH_ATTEMPTS = 5;
/** Push rejections that mean "the ref moved": a lost compare-and-swap, not a refusal. */
const LOST_RACE = /stale info|fetch first|non-fast-forward|already exists|lock|failed to update ref|incorrect old value|expected/i;

export interface GitStoreOptions {
  /** The cache directory holding the scratch repository (default: defaultCacheDir(), git-scratch.ts). */
  cacheDir?: string;
  /** Resolve a local path against this directory (default: process.cwd()). */
  cwd?: string;
  lockTimeoutMs?: number;
}

export class GitStore implements Store {
  readonly location: string;
  /** Writers on other hosts race for the ref; the writer retries a lost race this many times. */
  readonly casAttempts = 12;
  readonly remote: string;
  /** The scratch repository's directory. */
  readonly scratch: string;
  private readonly repo: ScratchRepo;
  private readonly objects: CatFile;
  /** undefined: not read yet; null: the remote has no store ref. */
  private snap: Snapshot | null | undefined;
  private readonly pending = new Map<string, string>();
  private readonly notes: string[] = [];

  constructor(spec: string, private readonly options: GitStoreOptions = {}) {
    this.remote = gitRemoteOf(spec, options.cwd);
    this.location = `git+${displayUrl(this.remote)}`;
    this.repo = new ScratchRepo(this.remote, options.cacheDir);
    this.scratch = this.repo.path;
    this.objects = new CatFile(this.scratch);
  }

  /** Stop the object reader (the store stays usable: it restarts on demand). */
  close(): void {
    this.objects.close();
  }

  /** A store ref, once seen, is there for good: only its absence is worth asking the remote again. */
  async exists(): Promise<boolean> {
    return this.snap ? true : (await this.refresh()) !== null;
  }

  async init(): Promise<void> {
    for (let attempt = 0; attempt < PUSH_ATTEMPTS; attempt++) {
      if ((await this.refresh()) !== null) return;
      const tree = await editTree(this.scratch, this.read, null, new Map([['layout.json', writeObject(this.scratch, 'blob', Buffer.from(LAYOUT))]]));
      const commit = writeCommit(this.scratch, tree as string, null, 'rulec registry: create the store');
      if (await this.push(commit, null)) {
        await this.repo.markHeld(commit);
        this.snap = await this.snapshotOf(commit);
        return;
      }
    }
    throw registryError('RC7207', { file: '', message: `could not create the store at ${this.location}: the ref kept changing` });
  }

  async putBlob(bytes: Uint8Array): Promise<string> {
    const digest = digestOf(bytes);
    if (this.pending.has(digest) || (await this.readPath(await this.current(), blobPath(digest))) !== null) return digest;
    await this.repo.ensure();
    this.pending.set(digest, writeObject(this.scratch, 'blob', bytes));
    return digest;
  }

  async getBlob(digest: string): Promise<Buffer | null> {
    const path = blobPath(digest);
    const staged = this.pending.get(digest);
    if (staged !== undefined) return (await this.read(staged))?.content ?? null;
    return this.readPath(await this.current(), path);
  }

  async latestIndex(): Promise<IndexHead | null> {
    const snap = await this.refresh();
    if (snap === null || snap.seq === 0) return null;
    const bytes = await this.readPath(snap, indexPath(snap.seq));
    if (bytes === null) throw registryError('RC7205', { file: `index/${snap.seq}`, message: `index seq ${snap.seq} is missing from ${this.location}` });
    return { seq: snap.seq, bytes };
  }

  async indexAt(seq: number): Promise<Buffer | null> {
    let snap = await this.current();
    if (snap !== null && seq > snap.seq) snap = await this.refresh();
    return snap === null || seq < 1 || seq > snap.seq ? null : this.readPath(snap, indexPath(seq));
  }

  async casIndex(expectSeq: number, next: { bytes: string; audit: string; auditAt: number }): Promise<boolean> {
    // A lost push means the ref moved: the writer re-reads and re-runs its operation, so no retry here.
    return this.commit(`rulec registry: index ${expectSeq + 1}`, false, async (snap) => {
      if (snap.seq !== expectSeq) return 'lost';
      const edits = await this.auditEdits(snap, next.auditAt, next.audit);
      edits.set(indexPath(expectSeq + 1), writeObject(this.scratch, 'blob', Buffer.from(next.bytes)));
      edits.set('HEAD', writeObject(this.scratch, 'blob', Buffer.from(`${expectSeq + 1}\n`)));
      return edits;
    });
  }

  async readAudit(from = 0): Promise<{ bytes: Buffer; size: number }> {
    return this.auditOf(await this.current(), from);
  }

  private async auditOf(snap: Snapshot | null, from: number): Promise<{ bytes: Buffer; size: number }> {
    if (snap === null) return { bytes: Buffer.alloc(0), size: 0 };
    const start = Math.min(Math.max(0, from), snap.auditSize);
    const parts: Buffer[] = [];
    for (let i = Math.floor(start / AUDIT_CHUNK); i < snap.chunks.length; i++) {
      const chunk = await this.readPath(snap, `audit/${snap.chunks[i]}`);
      if (chunk === null) throw registryError('RC7201', { file: 'audit', message: `audit chunk ${snap.chunks[i]} is missing from ${this.location}` });
      parts.push(i === Math.floor(start / AUDIT_CHUNK) ? chunk.subarray(start % AUDIT_CHUNK) : chunk);
    }
    return { bytes: Buffer.concat(parts), size: snap.auditSize };
  }

  async appendAudit(keep: number, text: string): Promise<void> {
    const committed = await this.commit('rulec registry: audit log repair', true, (snap) => this.auditEdits(snap, keep, text));
    if (!committed) throw registryError('RC7207', { file: 'audit.log', message: `the store ref at ${this.location} kept changing during an audit repair` });
  }

  /**
   * The chunk edits that keep `keep` bytes of the log and append `text`.
   * Bytes beyond `keep` may only be a torn line (no newline): anything else
   * was appended by another writer and is never cut off (as the local store).
   */
  private async auditEdits(snap: Snapshot, keep: number, text: string): Promise<TreeEdits> {
    if (snap.auditSize < keep) throw registryError('RC7502', { file: 'audit.log', message: `the audit log is ${snap.auditSize} bytes, shorter than the ${keep} bytes just read: it was truncated` });
    const first = Math.floor(keep / AUDIT_CHUNK);
    const tail = (await this.auditOf(snap, first * AUDIT_CHUNK)).bytes;
    if (tail.subarray(keep - first * AUDIT_CHUNK).includes(0x0a)) {
      throw registryError('RC7207', { file: 'audit.log', message: 'another writer appended to the audit log during this operation' });
    }
    const rewritten = Buffer.concat([tail.subarray(0, keep - first * AUDIT_CHUNK), Buffer.from(text)]);
    const edits: TreeEdits = new Map();
    const count = Math.max(first + Math.ceil(rewritten.length / AUDIT_CHUNK), snap.chunks.length);
    for (let i = first; i < count; i++) {
      const part = rewritten.subarray((i - first) * AUDIT_CHUNK, (i - first + 1) * AUDIT_CHUNK);
      edits.set(`audit/${chunkName(i)}`, part.length === 0 ? null : writeObject(this.scratch, 'blob', part));
    }
    return edits;
  }

  async exclusive<T>(fn: () => Promise<T>): Promise<T> {
    await this.repo.ensure();
    return this.repo.writerLocked(this.options.lockTimeoutMs ?? 60_000, (n) => this.notes.push(n), fn);
  }

  /** The remote is never half-written; what an interrupted writer leaves is in the scratch repository. */
  async sweep(): Promise<string[]> {
    return [...this.notes.splice(0), ...this.repo.sweepTemps()];
  }

  // ---- snapshot, fetch and push ----

  private readonly read = async (name: string): Promise<{ type: string; content: Buffer } | null> => this.objects.read(name);

  private async current(): Promise<Snapshot | null> {
    return this.snap === undefined ? this.refresh() : this.snap;
  }

  private async readPath(snap: Snapshot | null, path: string): Promise<Buffer | null> {
    if (snap === null) return null;
    const obj = await this.objects.read(`${snap.commit}:${path}`);
    return obj !== null && obj.type === 'blob' ? obj.content : null;
  }

  /**
   * Step 1: read the remote ref; fetch unless the scratch holds its commit
   * completely. The scratch's own copy of the ref is what marks a commit
   * complete: git fetch moves it only once every object has arrived (a fetch
   * writes a commit before its trees, so a commit object alone proves
   * nothing), and a writer moves it to the commit it built and pushed.
   */
  private async refresh(): Promise<Snapshot | null> {
    await this.repo.ensure();
    const r = await runGit(this.scratch, ['ls-remote', '--refs', this.remote, GIT_REF]);
    if (r.code !== 0) throw this.unreachable('read', r.stderr);
    const tip = /^([0-9a-f]{40,64})\t/.exec(r.stdout)?.[1];
    if (tip === undefined) return (this.snap = null);
    const held = await this.repo.locked(async () => {
      if (this.repo.localRef() === tip) return tip;
      const f = await runGit(this.scratch, ['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', '--no-recurse-submodules', '--no-auto-maintenance', this.remote, `+${GIT_REF}:${GIT_REF}`]);
      if (f.code !== 0) throw this.unreachable('fetch', f.stderr);
      return this.repo.localRef();
    });
    if (held === null) throw registryError('RC7601', { file: '', message: `fetching ${GIT_REF} from ${this.location} left no copy of it in ${this.scratch}` });
    return (this.snap = await this.snapshotOf(held));
  }

  private snapshotOf(commit: string): Promise<Snapshot> {
    return readSnapshot(this.read, commit, this.location);
  }

  /**
   * Step 3: build a commit from the current snapshot with `plan`'s edits and
   * the staged blobs, and push it as a compare-and-swap. A lost race re-reads
   * the ref and asks `plan` again when `retry` (appendAudit), else reports the
   * loss (casIndex); `plan` returns 'lost' when the state makes the change
   * void (casIndex: another index took the seq).
   */
  private async commit(message: string, retry: boolean, plan: (snap: Snapshot) => Promise<TreeEdits | 'lost'>): Promise<boolean> {
    let snap = await this.current();
    for (let attempt = 1; attempt <= PUSH_ATTEMPTS; attempt++) {
      if (snap === null) throw registryError('RC7209', { file: '', message: `no registry at ${this.location}` });
      const edits = await plan(snap);
      if (edits === 'lost') return false;
      for (const [digest, oid] of this.pending) edits.set(blobPath(digest), oid);
      const tree = await editTree(this.scratch, this.read, snap.tree, edits);
      const commit = writeCommit(this.scratch, tree as string, snap.commit, message);
      if (await this.push(commit, snap.commit)) {
        this.pending.clear();
        await this.repo.markHeld(commit);
        this.snap = await this.snapshotOf(commit);
        return true;
      }
      this.snap = undefined;
      if (!retry) return false;
      await sleep(Math.random() * 20 * attempt);
      snap = await this.refresh();
    }
    return false;
  }

  /** Push `commit` to the ref if the remote still holds `expect` (null: no ref). False: the race was lost. */
  private async push(commit: string, expect: string | null): Promise<boolean> {
    const r = await runGit(this.scratch, ['push', '--porcelain', '--no-verify', `--force-with-lease=${GIT_REF}:${expect ?? ''}`, this.remote, `${commit}:${GIT_REF}`]);
    if (r.code === 0) return true;
    const rejected = /^!\t[^\t]*\t(.*)$/m.exec(r.stdout)?.[1];
    if (rejected === undefined) throw this.unreachable('push to', r.stderr);
    if (LOST_RACE.test(rejected) && !/hook|declined|protected/i.test(rejected)) return false;
    throw registryError('RC7602', { file: GIT_REF, message: `${this.location} refused the update of ${GIT_REF}: ${rejected}${lastLines(r.stderr)}` });
  }

  private unreachable(what: string, stderr: string): Error {
    return registryError('RC7601', { file: '', message: `cannot ${what} ${this.location}${lastLines(stderr)}` });
  }
}
