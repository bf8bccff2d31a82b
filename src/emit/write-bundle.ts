/**
 * Emit (I/O): write a bundle directory atomically.
 *
 * 1. Build every file in memory (manifest.json and the parts it pins,
 *    contexts, attachments, and one blob per distinct source content, named
 *    by its sha256).
 * 2. Remove temp directories of earlier builds whose process is gone (an
 *    interrupted build leaves one; a concurrent build's is left alone).
 * 3. Write the files into a fresh temporary directory beside the destination,
 *    `.tmp-<bundle_id>-<pid>-<random>`, created with the process umask (as
 *    mkdir does; mkdtemp would force 0700 on every bundle).
 * 4. Rename it to `<out>/<bundle_id>`; an existing bundle with the same id is
 *    replaced only after the new one is complete. Then point `<out>/current`
 *    at it (also written to a temp file and renamed).
 * Nothing is left behind on failure: the temp directory is removed. An output
 * directory that cannot be written (a file, no permission, read-only) is a
 * UsageError naming it, not an internal error.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { openBundle } from '../bundle/open-bundle.js';
import { BUNDLE_DIRS, CURRENT_POINTER, entryFile, MANIFEST_FILE, partFile, sourceBlobFile } from '../bundle/layout.js';
import { encodeManifest, manifestBytes, type ManifestV1 } from '../bundle/model.js';
import { InternalError, UsageError } from '../util/errors.js';
import { dirname, join, resolve as resolvePath } from 'node:path';
import type { Attachment, SourceFile, Variant } from '../types.js';
import { digestOf } from '../util/hash.js';

export interface BundleFiles {
  manifest: ManifestV1;
  variants: readonly Variant[];
  attachments: readonly Attachment[];
  /** Every file read (CompileResult.discovered): the bytes of the source blobs. */
  discovered: { files: readonly SourceFile[] };
}

/** Relative path → content of every file in the bundle (text files as strings, source blobs as raw bytes). */
export function bundleFileMap(b: BundleFiles): Map<string, string | Uint8Array> {
  const files = new Map<string, string | Uint8Array>();
  const encoded = encodeManifest(b.manifest);
  files.set(MANIFEST_FILE, encoded.text);
  for (const [name, text] of encoded.parts) files.set(partFile(name), text);
  for (const v of b.variants) files.set(entryFile('variant', v.id), v.text);
  for (const a of b.attachments) files.set(entryFile('attachment', a.id), a.text);
  const byId = new Map(b.discovered.files.map((f) => [f.id, f] as const));
  // A source whose path holds a detected secret is listed under its masked id (a result with RC1012
  // errors, which the CLI never writes): its bytes are found by digest.
  let byDigest: Map<string, Uint8Array> | undefined;
  const bytesOf = (id: string, sha256: string): Uint8Array | undefined => {
    const bytes = byId.get(id)?.bytes;
    if (bytes && digestOf(bytes) === sha256) return bytes;
    byDigest ??= new Map(b.discovered.files.map((f) => [digestOf(f.bytes), f.bytes] as const));
    return byDigest.get(sha256);
  };
  for (const [id, f] of Object.entries(b.manifest.files)) {
    const rel = sourceBlobFile(f.sha256);
    if (files.has(rel)) continue;
    const bytes = bytesOf(id, f.sha256);
    if (!bytes) throw new InternalError(`no bytes for source ${id} matching ${f.sha256}`);
    files.set(rel, bytes);
  }
  return files;
}

export function writeBundle(outDir: string, b: BundleFiles): string {
  if (b.manifest.layers.user) {
    throw new UsageError('a result that includes personal user files cannot be written as a bundle');
  }
  try {
    return writeInto(outDir, b);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (typeof code !== 'string') throw e;
    throw new UsageError(`cannot write the bundle to ${outDir}: ${WHY[code] ?? code}`);
  }
}

const WHY: Record<string, string> = {
  ENOENT: 'a directory on the way does not exist and cannot be created',
  EEXIST: 'a file is in the way (--out must name a directory)',
  ENOTDIR: 'a file is in the way (--out must name a directory)',
  EACCES: 'permission denied', EPERM: 'permission denied', EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device', EDQUOT: 'disk quota exceeded',
};

function writeInto(outDir: string, b: BundleFiles): string {
  makeDirs(outDir);
  if (!statSync(outDir).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
  removeStaleTemps(outDir);
  const dest = join(outDir, b.manifest.bundle_id);
  if (alreadyWritten(dest, b.manifest)) {
    pointAt(outDir, b.manifest.bundle_id);
    return dest;
  }
  const tmp = freshDir(outDir, `.tmp-${b.manifest.bundle_id}-${process.pid}-`);
  try {
    for (const sub of BUNDLE_DIRS) mkdirSync(join(tmp, sub));
    for (const [rel, content] of bundleFileMap(b)) writeFileSync(join(tmp, rel), content);
    if (existsSync(dest)) {
      const old = `${tmp}.old`;
      renameSync(dest, old);
      renameSync(tmp, dest);
      rmSync(old, { recursive: true, force: true });
    } else {
      renameSync(tmp, dest);
    }
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
  pointAt(outDir, b.manifest.bundle_id);
  return dest;
}

/**
 * A rebuild the build cache answered (src/cache): when `intact` finds
 * `<out>/<bundle_id>` as the build left it, do what writeBundle does for a
 * bundle already written — remove stale temps, point `current` at it — and
 * return its directory; null when it is not (the caller then compiles and
 * writes it). Errors are writeBundle's.
 */
export function reuseBundle(outDir: string, bundleId: string, intact: (dir: string) => boolean): string | null {
  const dest = join(outDir, bundleId);
  if (!intact(dest)) return null;
  try {
    removeStaleTemps(outDir);
    pointAt(outDir, bundleId);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (typeof code !== 'string') throw e;
    throw new UsageError(`cannot write the bundle to ${outDir}: ${WHY[code] ?? code}`);
  }
  return dest;
}

/**
 * `mkdir -p`, one level at a time. Node's recursive mkdirSync never returns
 * on a path under /proc (it retries the ENOENT forever), so `--out /proc/x`
 * hung the build; here each level is one mkdir whose error is final.
 */
function makeDirs(dir: string): void {
  const missing: string[] = [];
  for (let d = resolvePath(dir); statSync(d, { throwIfNoEntry: false }) === undefined; d = dirname(d)) {
    missing.push(d);
    if (dirname(d) === d) break;
  }
  for (const d of missing.reverse()) {
    try {
      mkdirSync(d);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
}

/** A new directory `<prefix><random>` made with mkdir, so the umask decides its mode. */
function freshDir(parent: string, prefix: string): string {
  for (;;) {
    const dir = join(parent, prefix + randomBytes(6).toString('hex'));
    try {
      mkdirSync(dir);
      return dir;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
}

/** Temp entries rulec writes: `.tmp-<bundle_id>-<pid>-<random>[.old]` and `.tmp-current-<pid>`. */
const TEMP = /^\.tmp-(?:b-[0-9a-f]{16}-(\d+)-[0-9a-f]+(?:\.old)?|current-(\d+))$/;

/**
 * Remove the temp entries of builds whose process no longer runs. A live pid
 * (a concurrent build, or a reused pid) keeps its entry; it is removed by a
 * later build once that process is gone.
 */
function removeStaleTemps(outDir: string): void {
  for (const name of readdirSync(outDir)) {
    const m = TEMP.exec(name);
    if (m) {
      const pid = Number(m[1] ?? m[2]);
      if (pid !== process.pid && !isRunning(pid)) rmSync(join(outDir, name), { recursive: true, force: true });
    } else if (LEGACY_TEMP.test(name) && olderThan(join(outDir, name), LEGACY_AGE_MS)) {
      rmSync(join(outDir, name), { recursive: true, force: true });
    }
  }
}

/** Temp directories of rulec versions that did not record a pid (mkdtemp's 6 characters): removed after an hour. */
const LEGACY_TEMP = /^\.tmp-b-[0-9a-f]{16}-[A-Za-z0-9]{6}(?:\.old)?$/;
const LEGACY_AGE_MS = 60 * 60 * 1000;

function olderThan(path: string, ms: number): boolean {
  try {
    return Date.now() - statSync(path).mtimeMs > ms;
  } catch {
    return false;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'; // alive, owned by someone else
  }
}

/** `<out>/current` names the bundle last built; replaced atomically. */
function pointAt(outDir: string, bundleId: string): void {
  const tmp = join(outDir, `.tmp-current-${process.pid}`);
  writeFileSync(tmp, `${bundleId}\n`);
  renameSync(tmp, join(outDir, CURRENT_POINTER));
}

/**
 * A rebuild with nothing changed: the same manifest bytes already sit at
 * `dest` and every file still verifies against them. Rewriting 1,800 files
 * would cost more than reading them back.
 */
function alreadyWritten(dest: string, manifest: ManifestV1): boolean {
  try {
    if (readFileSync(join(dest, MANIFEST_FILE), 'utf8') !== manifestBytes(manifest)) return false;
    openBundle(dest, { verify: 'all' });
    return true;
  } catch {
    return false;
  }
}
