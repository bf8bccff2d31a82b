/**
 * The git store's tree, as paths and one consistent reading of a commit:
 *
 *   layout.json                        marks the ref as a rulec registry store
 *   HEAD                               the latest index seq
 *   index/<10 digits>/<seq:12>.dsse.json every signed index (100 to a directory)
 *   audit/<chunk:6>.log                the audit log in 64 KiB chunks (all full but the last)
 *   blobs/sha256/<2>/<62 hex>          content-addressed blobs
 */
import { registryError } from '../errors.js';
import { GRAMMAR } from '../model.js';
import { parseTree } from '../remote/git-objects.js';

export const GIT_REF = 'refs/rulec/registry';
export const LAYOUT = `${JSON.stringify({ rulec_registry: 'git', version: 1 })}\n`;
/** Small chunks and index directories: every commit rewrites the last of each (git stores whole objects). */
export const AUDIT_CHUNK = 64 * 1024;

/** One commit of the store ref, read once: every read of an operation comes from it. */
export interface Snapshot {
  commit: string;
  tree: string;
  seq: number;
  /** Audit chunk names in order, and the log's total size. */
  chunks: string[];
  auditSize: number;
}

export type ReadObject = (name: string) => Promise<{ type: string; content: Buffer } | null>;

export function indexPath(seq: number): string {
  const name = String(seq).padStart(12, '0');
  return `index/${name.slice(0, 10)}/${name}.dsse.json`;
}

export function chunkName(i: number): string {
  return `${String(i).padStart(6, '0')}.log`;
}

export function blobPath(digest: string): string {
  if (!GRAMMAR.digest.test(digest)) throw registryError('RC7202', { file: '', message: `not a blob digest: ${JSON.stringify(digest)}` });
  return `blobs/sha256/${digest.slice(7, 9)}/${digest.slice(9)}`;
}

/** The snapshot of `commit`, or RC7201 when it is not a rulec registry store (`location` names it). */
export async function readSnapshot(read: ReadObject, commit: string, location: string): Promise<Snapshot> {
  const obj = await read(commit);
  const tree = obj?.type === 'commit' ? /^tree ([0-9a-f]{40,64})$/m.exec(obj.content.toString('utf8'))?.[1] : undefined;
  const bad = (why: string) => registryError('RC7201', { file: GIT_REF, message: `${GIT_REF} at ${location} is not a rulec registry store: ${why}` });
  if (tree === undefined) throw bad('it does not name a commit');
  const layout = await read(`${commit}:layout.json`);
  if (layout?.content.toString('utf8') !== LAYOUT) throw bad('layout.json is missing or not the git store layout');
  const head = (await read(`${commit}:HEAD`))?.content.toString('utf8');
  if (head !== undefined && !/^\d{1,12}\n$/.test(head)) throw bad('HEAD is not a sequence number');
  const audit = await read(`${commit}:audit`);
  const chunks = audit?.type === 'tree' ? parseTree(audit.content).map((e) => e.name).filter((n) => /^\d{6}\.log$/.test(n)).sort() : [];
  if (chunks.some((n, i) => n !== chunkName(i))) throw bad('the audit chunks are not numbered 0, 1, 2, …');
  const last = chunks.length === 0 ? null : await read(`${commit}:audit/${chunks.at(-1)}`);
  const auditSize = chunks.length === 0 ? 0 : (chunks.length - 1) * AUDIT_CHUNK + (last?.content.length ?? 0);
  return { commit, tree, seq: head === undefined ? 0 : Number(head), chunks, auditSize };
}
