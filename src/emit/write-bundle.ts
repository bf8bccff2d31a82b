/**
 * Emit (I/O): write a bundle directory atomically.
 *
 * 1. Build every file in memory (manifest bytes, contexts, attachments, and
 *    one blob per distinct source content, named by its sha256).
 * 2. Write them into a fresh temporary directory beside the destination.
 * 3. Rename it to `<out>/<bundle_id>`; an existing bundle with the same id is
 *    replaced only after the new one is complete. Then point `<out>/current`
 *    at it (also written to a temp file and renamed).
 * Nothing is left behind on failure: the temp directory is removed.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { openBundle } from '../bundle/open-bundle.js';
import { BUNDLE_DIRS, CURRENT_POINTER, entryFile, MANIFEST_FILE, sourceBlobFile } from '../bundle/layout.js';
import { manifestBytes, type ManifestV1 } from '../bundle/model.js';
import { InternalError, UsageError } from '../diagnostics/errors.js';
import { join } from 'node:path';
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
  files.set(MANIFEST_FILE, manifestBytes(b.manifest));
  for (const v of b.variants) files.set(entryFile('variant', v.id), v.text);
  for (const a of b.attachments) files.set(entryFile('attachment', a.id), a.text);
  const byId = new Map(b.discovered.files.map((f) => [f.id, f] as const));
  for (const [id, f] of Object.entries(b.manifest.files)) {
    const rel = sourceBlobFile(f.sha256);
    if (files.has(rel)) continue;
    const bytes = byId.get(id)?.bytes;
    if (!bytes || digestOf(bytes) !== f.sha256) throw new InternalError(`no bytes for source ${id} matching ${f.sha256}`);
    files.set(rel, bytes);
  }
  return files;
}

export function writeBundle(outDir: string, b: BundleFiles): string {
  if (b.manifest.layers.user) {
    throw new UsageError('a result that includes personal user files cannot be written as a bundle');
  }
  mkdirSync(outDir, { recursive: true });
  const dest = join(outDir, b.manifest.bundle_id);
  if (alreadyWritten(dest, b.manifest)) {
    pointAt(outDir, b.manifest.bundle_id);
    return dest;
  }
  const tmp = mkdtempSync(join(outDir, `.tmp-${b.manifest.bundle_id}-`));
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
