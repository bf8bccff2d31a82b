/**
 * Emit (I/O): write a bundle directory atomically.
 *
 * 1. Build every file in memory (manifest bytes, contexts, attachments).
 * 2. Write them into a fresh temporary directory beside the destination.
 * 3. Rename it to `<out>/<bundle_id>`; an existing bundle with the same id is
 *    replaced only after the new one is complete. Then point `<out>/current`
 *    at it (also written to a temp file and renamed).
 * Nothing is left behind on failure: the temp directory is removed.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { openBundle } from '../bundle/open-bundle.js';
import { ATTACHMENT_DIR, CONTEXT_DIR, CURRENT_POINTER, entryFile, MANIFEST_FILE } from '../bundle/layout.js';
import { manifestBytes, type ManifestV1 } from '../bundle/model.js';
import { UsageError } from '../diagnostics/errors.js';
import { join } from 'node:path';
import type { Attachment, Variant } from '../types.js';

export interface BundleFiles {
  manifest: ManifestV1;
  variants: readonly Variant[];
  attachments: readonly Attachment[];
}

/** Relative path → content of every file in the bundle. */
export function bundleFileMap(b: BundleFiles): Map<string, string> {
  const files = new Map<string, string>();
  files.set(MANIFEST_FILE, manifestBytes(b.manifest));
  for (const v of b.variants) files.set(entryFile('variant', v.id), v.text);
  for (const a of b.attachments) files.set(entryFile('attachment', a.id), a.text);
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
    mkdirSync(join(tmp, CONTEXT_DIR));
    mkdirSync(join(tmp, ATTACHMENT_DIR));
    for (const [rel, text] of bundleFileMap(b)) writeFileSync(join(tmp, rel), text);
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
