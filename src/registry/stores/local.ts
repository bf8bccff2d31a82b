/**
 * The local directory store (default `.rulec/registry/`):
 *
 *   layout.json                 marks the directory as a rulec registry store
 *   blobs/sha256/<2>/<62 hex>   content-addressed blobs, never rewritten
 *   index/<seq:12>.dsse.json    every signed index, created with link(2): the
 *                               compare-and-swap (exactly one creator per seq)
 *   HEAD                        the latest seq, a hint for readers
 *   audit.log                   the hash-chained audit log (JSON lines)
 *   lock                        the writers' lock (stores/lock.ts)
 *   tmp/<pid>-<random>          temp files before they get their names
 *
 * An operation commits at the link of its index file; before it nothing
 * changed, after it the operation happened. Everything after the commit point
 * (HEAD, the audit append) is completed by the next writer or by verify.
 */
import { closeSync, constants, type Dirent, fstatSync, ftruncateSync, fsyncSync, lstatSync, mkdirSync, openSync, readdirSync, readSync, type Stats, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { readRegularFile } from '../../bundle/read-regular.js';
import { digestOf } from '../../util/hash.js';
import { RegistryError, registryError } from '../errors.js';
import { GRAMMAR } from '../model.js';
import type { IndexHead, Store } from '../store.js';
import { alive, createDurable, crashPoint, fsyncDir, isErrno, replaceDurable } from './durable.js';
import { withLock } from './lock.js';

const LAYOUT = { rulec_registry: 'local', version: 1 };
const INDEX_NAME = /^(\d{12})\.dsse\.json$/;

export interface LocalStoreOptions {
  lockTimeoutMs?: number;
}

export class LocalStore implements Store {
  readonly location: string;
  private readonly notes: string[] = [];
  constructor(readonly root: string, private readonly options: LocalStoreOptions = {}) {
    this.location = root;
  }

  private path(...parts: string[]): string {
    return join(this.root, ...parts);
  }

  async exists(): Promise<boolean> {
    const r = readRegularFile(this.path('layout.json'), 4096);
    if (!r.ok && r.why === 'missing') return false;
    if (!r.ok || r.bytes.toString('utf8') !== `${JSON.stringify(LAYOUT)}\n`) {
      throw registryError('RC7201', { file: 'layout.json', message: `${this.root} is not a rulec registry store (layout.json is ${r.ok ? 'not the local store layout' : r.why})` });
    }
    return true;
  }

  async init(): Promise<void> {
    if (await this.exists()) return;
    for (const d of ['', 'blobs', 'blobs/sha256', 'index', 'tmp']) mkdirSync(this.path(d), { recursive: true });
    fsyncDir(this.path('blobs'));
    fsyncDir(this.root);
    createDurable(this.path('tmp'), this.path('layout.json'), this.root, `${JSON.stringify(LAYOUT)}\n`, 'store layout');
  }

  private blobPath(digest: string): string {
    if (!GRAMMAR.digest.test(digest)) throw registryError('RC7202', { file: '', message: `not a blob digest: ${JSON.stringify(digest)}` });
    const hex = digest.slice(7);
    return this.path('blobs', 'sha256', hex.slice(0, 2), hex.slice(2));
  }

  async putBlob(bytes: Uint8Array): Promise<string> {
    const digest = digestOf(bytes);
    const dest = this.blobPath(digest);
    if (existsFile(dest)) return digest;
    const dir = this.dir(`blobs/sha256/${digest.slice(7, 9)}`);
    if (!existsFile(dir)) {
      const shards = this.dir('blobs/sha256');
      mkdirSync(dir, { recursive: true });
      fsyncDir(shards);
    }
    createDurable(this.tmpDir(), dest, dir, bytes, `blob ${digest.slice(7, 19)}`, 0o444);
    return digest;
  }

  async getBlob(digest: string): Promise<Buffer | null> {
    return this.readFile(this.blobPath(digest), `blobs/${digest}`);
  }

  private readFile(path: string, rel: string): Buffer | null {
    const r = readRegularFile(path);
    if (r.ok) return r.bytes;
    if (r.why === 'missing') return null;
    throw registryError('RC7201', { file: rel, message: `cannot read ${rel}: ${r.detail ?? r.why}` });
  }

  private indexPath(seq: number): string {
    return this.path('index', `${String(seq).padStart(12, '0')}.dsse.json`);
  }

  async latestIndex(): Promise<IndexHead | null> {
    const head = this.readFile(this.path('HEAD'), 'HEAD');
    let seq = head && /^\d{1,12}\n$/.test(head.toString('utf8')) ? Number(head.toString('utf8')) : this.scanLatest();
    if (seq > 0 && !existsFile(this.indexPath(seq))) seq = this.scanLatest();
    while (existsFile(this.indexPath(seq + 1))) seq += 1;
    if (seq === 0) return null;
    const bytes = await this.indexAt(seq);
    if (bytes === null) throw registryError('RC7205', { file: 'index', message: `index seq ${seq} disappeared while read` });
    return { seq, bytes };
  }

  private scanLatest(): number {
    let names: string[];
    try {
      names = readdirSync(this.dir('index'));
    } catch (e) {
      if (isErrno(e, 'ENOENT')) return 0;
      throw e instanceof RegistryError ? e : damaged('index', e);
    }
    return names.reduce((max, n) => Math.max(max, Number(INDEX_NAME.exec(n)?.[1] ?? 0)), 0);
  }

  async indexAt(seq: number): Promise<Buffer | null> {
    return this.readFile(this.indexPath(seq), `index/${seq}`);
  }

  async casIndex(expectSeq: number, next: { bytes: string; audit: string; auditAt: number }): Promise<boolean> {
    if (expectSeq > 0 && !existsFile(this.indexPath(expectSeq))) return false;
    const seq = expectSeq + 1;
    if (!createDurable(this.tmpDir(), this.indexPath(seq), this.dir('index'), next.bytes, `index ${seq}`, 0o444)) return false;
    replaceDurable(this.tmpDir(), this.path('HEAD'), this.root, `${seq}\n`, 'HEAD');
    await this.appendAudit(next.auditAt, next.audit);
    return true;
  }

  async readAudit(from = 0): Promise<{ bytes: Buffer; size: number }> {
    const fd = this.openAudit(constants.O_RDONLY);
    if (fd === null) return { bytes: Buffer.alloc(0), size: 0 };
    try {
      const size = fstatSync(fd).size;
      const start = Math.min(Math.max(0, from), size);
      const bytes = Buffer.alloc(size - start);
      let at = 0;
      while (at < bytes.length) {
        const n = readSync(fd, bytes, at, bytes.length - at, start + at);
        if (n === 0) break;
        at += n;
      }
      return { bytes: bytes.subarray(0, at), size };
    } finally {
      closeSync(fd);
    }
  }

  /**
   * Keep `keep` bytes and append `text`. Bytes beyond `keep` may only be a
   * torn line (no newline): anything else was appended by another writer, and
   * is never cut off.
   */
  async appendAudit(keep: number, text: string): Promise<void> {
    const path = this.path('audit.log');
    const created = !existsFile(path);
    const fd = this.openAudit(constants.O_RDWR | constants.O_CREAT);
    if (fd === null) throw registryError('RC7201', { file: 'audit.log', message: `cannot create audit.log: ${this.root} is gone` });
    try {
      const size = fstatSync(fd).size;
      if (size < keep) throw registryError('RC7502', { file: 'audit.log', message: `audit.log is ${size} bytes, shorter than the ${keep} bytes just read: it was truncated` });
      if (size > keep) {
        const extra = Buffer.alloc(size - keep);
        readSync(fd, extra, 0, extra.length, keep);
        if (extra.includes(0x0a)) throw registryError('RC7207', { file: 'audit.log', message: 'another writer appended to audit.log during this operation' });
        ftruncateSync(fd, keep);
        crashPoint('audit: torn line cut');
      }
      const buf = Buffer.from(text);
      let at = 0;
      while (at < buf.length) at += writeSync(fd, buf, at, buf.length - at, keep + at);
      fsyncSync(fd);
      crashPoint('audit: appended');
    } finally {
      closeSync(fd);
    }
    if (created) fsyncDir(this.root);
  }

  /**
   * Store directory `rel` (tmp, index, blobs/…), refused (RC7201) when anything but a
   * directory has its name, before a write or a listing meets it as ENOTDIR or EISDIR. A missing
   * one is left to the caller.
   */
  private dir(rel: string): string {
    const path = this.path(rel);
    let st: Stats;
    try {
      st = lstatSync(path);
    } catch (e) {
      if (isErrno(e, 'ENOENT')) return path;
      throw damaged(rel, e);
    }
    if (!st.isDirectory()) throw registryError('RC7201', { file: rel, message: `the store is damaged: ${rel} must be a directory, found ${kindOf(st)}` });
    return path;
  }

  /** The writers' scratch directory, made again when missing: it holds nothing of the registry's state. */
  private tmpDir(): string {
    const path = this.dir('tmp');
    mkdirSync(path, { recursive: true });
    return path;
  }

  /**
   * audit.log, opened without following a link and without blocking (a FIFO in its place would
   * stall the reader, and with it every writer waiting for the lock), then checked on the open
   * descriptor: anything but a regular file is a damaged store (RC7201). Null when it is missing.
   */
  private openAudit(flags: number): number | null {
    let fd: number;
    try {
      fd = openSync(this.path('audit.log'), flags | constants.O_NOFOLLOW | constants.O_NONBLOCK, 0o644);
    } catch (e) {
      if (isErrno(e, 'ENOENT')) return null;
      throw damaged('audit.log', e);
    }
    const st = fstatSync(fd);
    if (st.isFile()) return fd;
    closeSync(fd);
    throw registryError('RC7201', { file: 'audit.log', message: `the store is damaged: audit.log must be a regular file, found ${kindOf(st)}` });
  }

  async exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return withLock({ path: this.path('lock'), tmpDir: this.tmpDir(), timeoutMs: this.options.lockTimeoutMs ?? 30_000, onBreak: (n) => this.notes.push(n) }, fn);
  }

  async sweep(): Promise<string[]> {
    const removed = this.notes.splice(0);
    let entries: Dirent[] = [];
    try {
      entries = readdirSync(this.dir('tmp'), { withFileTypes: true });
    } catch (e) {
      if (!isErrno(e, 'ENOENT')) throw e instanceof RegistryError ? e : damaged('tmp', e);
    }
    for (const entry of entries) {
      const name = entry.name;
      const pid = Number(/^(\d+)-/.exec(name)?.[1] ?? NaN);
      if (Number.isSafeInteger(pid) && pid !== process.pid && alive(pid)) continue;
      if (pid === process.pid) continue;
      // Writers only ever leave files here: anything else is not theirs to remove.
      if (!entry.isFile()) throw registryError('RC7201', { file: `tmp/${name}`, message: `the store is damaged: tmp/${name} is not a temp file a writer left (it is ${kindOf(entry)}); remove it by hand` });
      unlinkSync(join(this.path('tmp'), name));
      removed.push(`removed temp file tmp/${name}`);
    }
    return removed;
  }
}

/** What an entry of the wrong kind is, for a message. */
function kindOf(st: Stats | Dirent): string {
  return st.isSymbolicLink() ? 'a symbolic link' : st.isDirectory() ? 'a directory' : st.isFile() ? 'a regular file' : 'a special file (a FIFO, socket or device)';
}

/** A store path that cannot be used as the layout says (a file where a directory belongs, or the reverse): RC7201, never a crash. */
function damaged(rel: string, e: unknown): RegistryError {
  const code = (e as NodeJS.ErrnoException).code ?? 'error';
  const why = code === 'ENOTDIR' ? `${rel} (or a directory above it) is not a directory` : code === 'EISDIR' ? `${rel} is a directory` : code === 'ELOOP' ? `${rel} is a symbolic link` : `cannot use ${rel} (${code})`;
  return registryError('RC7201', { file: rel, message: `the store is damaged: ${why}` });
}

function existsFile(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
