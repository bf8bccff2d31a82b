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
import { UsageError } from '../diagnostics/errors.js';
import { join } from 'node:path';
import type { Attachment, Variant } from '../types.js';
import { manifestBytes, type Manifest } from './manifest.js';

export const CURRENT_POINTER = 'current';

export interface BundleFiles {
  manifest: Manifest;
  variants: readonly Variant[];
  attachments: readonly Attachment[];
}

/** Relative path → content of every file in the bundle. */
export function bundleFileMap(b: BundleFiles): Map<string, string> {
  const files = new Map<string, string>();
  files.set('manifest.json', manifestBytes(b.manifest));
  for (const v of b.variants) files.set(`context/${v.id}.md`, v.text);
  for (const a of b.attachments) files.set(`attachments/${a.id}.md`, a.text);
  return files;
}

export function writeBundle(outDir: string, b: BundleFiles): string {
  if ((b.manifest.layers as { user?: boolean } | undefined)?.user) {
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
    mkdirSync(join(tmp, 'context'));
    mkdirSync(join(tmp, 'attachments'));
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
function alreadyWritten(dest: string, manifest: Manifest): boolean {
  try {
    if (readFileSync(join(dest, 'manifest.json'), 'utf8') !== manifestBytes(manifest)) return false;
    openBundle(dest);
    return true;
  } catch {
    return false;
  }
}
