/**
 * Git objects written in-process into the scratch repository: blobs, trees
 * and commits as loose objects (zlib of "<type> <size>\0<body>", named by its
 * sha1), so building a commit costs no process. Trees are edited by path:
 * editTree rewrites only the trees along the changed paths.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { registryError } from '../errors.js';

const TREE_MODE = '40000';
const FILE_MODE = '100644';

export interface TreeEntry {
  mode: string;
  name: string;
  oid: string;
}

/** Write one object (idempotent); returns its id. */
export function writeObject(gitDir: string, type: 'blob' | 'tree' | 'commit', body: Uint8Array): string {
  const raw = Buffer.concat([Buffer.from(`${type} ${body.length}\0`), body]);
  const oid = createHash('sha1').update(raw).digest('hex');
  const dir = join(gitDir, 'objects', oid.slice(0, 2));
  const path = join(dir, oid.slice(2));
  if (existsSync(path)) return oid;
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `tmp_obj_rulec_${process.pid}_${randomBytes(6).toString('hex')}`);
  writeFileSync(tmp, deflateSync(raw), { mode: 0o444 });
  renameSync(tmp, path);
  return oid;
}

export function parseTree(body: Buffer): TreeEntry[] {
  const entries: TreeEntry[] = [];
  let at = 0;
  while (at < body.length) {
    const sp = body.indexOf(0x20, at);
    const nul = body.indexOf(0x00, sp);
    if (sp < 0 || nul < 0 || nul + 21 > body.length) throw registryError('RC7201', { file: '', message: 'the store ref holds a malformed git tree' });
    entries.push({ mode: body.subarray(at, sp).toString('latin1'), name: body.subarray(sp + 1, nul).toString('utf8'), oid: body.subarray(nul + 1, nul + 21).toString('hex') });
    at = nul + 21;
  }
  return entries;
}

/** Git's tree order: by name bytes, a directory compared as if its name ended in '/'. */
function sortKey(e: TreeEntry): Buffer {
  return Buffer.from(e.mode === TREE_MODE ? `${e.name}/` : e.name);
}

export function serializeTree(entries: readonly TreeEntry[]): Buffer {
  const sorted = [...entries].sort((a, b) => Buffer.compare(sortKey(a), sortKey(b)));
  return Buffer.concat(sorted.flatMap((e) => [Buffer.from(`${e.mode} ${e.name}\0`), Buffer.from(e.oid, 'hex')]));
}

export type ReadObject = (oid: string) => Promise<{ type: string; content: Buffer } | null>;

/** path → blob id to set, or null to remove. */
export type TreeEdits = Map<string, string | null>;

/** Apply `edits` to tree `root` (null: empty) and write the changed trees; null when the result is empty. */
export async function editTree(gitDir: string, read: ReadObject, root: string | null, edits: TreeEdits): Promise<string | null> {
  const entries = new Map<string, TreeEntry>();
  if (root !== null) {
    const obj = await read(root);
    if (obj === null || obj.type !== 'tree') throw registryError('RC7201', { file: '', message: `tree ${root} is missing from the store ref` });
    for (const e of parseTree(obj.content)) entries.set(e.name, e);
  }
  const sub = new Map<string, TreeEdits>();
  for (const [path, oid] of edits) {
    const slash = path.indexOf('/');
    if (slash < 0) {
      if (oid === null) entries.delete(path);
      else entries.set(path, { mode: FILE_MODE, name: path, oid });
      continue;
    }
    const dir = path.slice(0, slash);
    if (!sub.has(dir)) sub.set(dir, new Map());
    sub.get(dir)?.set(path.slice(slash + 1), oid);
  }
  for (const [dir, inner] of sub) {
    const existing = entries.get(dir);
    const next = await editTree(gitDir, read, existing?.mode === TREE_MODE ? existing.oid : null, inner);
    if (next === null) entries.delete(dir);
    else entries.set(dir, { mode: TREE_MODE, name: dir, oid: next });
  }
  if (entries.size === 0) return null;
  return writeObject(gitDir, 'tree', serializeTree([...entries.values()]));
}

/** A commit by rulec (the store's history is its audit trail; the time is informational). */
export function writeCommit(gitDir: string, tree: string, parent: string | null, message: string, now = new Date()): string {
  const when = `${Math.floor(now.getTime() / 1000)} +0000`;
  const who = `rulec registry <registry@rulec.invalid> ${when}`;
  const body = [`tree ${tree}`, ...(parent ? [`parent ${parent}`] : []), `author ${who}`, `committer ${who}`, '', message, ''].join('\n');
  return writeObject(gitDir, 'commit', Buffer.from(body));
}
