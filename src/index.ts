/**
 * rulec as a library.
 *
 * - compile(options) → CompileResult: the bundle in memory plus diagnostics.
 * - emitBundle(result, outDir) → the directory written (atomically).
 * - openBundle(dir) → a verified bundle: contextFor(path), attachmentsFor(path).
 */
export { compile, PolicyError, type CompileOptions, type CompileResult } from './compile.js';
export { openBundle, BundleError, type OpenedBundle, type PathContext, type PathAttachment, type OpenOptions } from './bundle/open-bundle.js';
export { writeBundle as emitBundleFiles, bundleFileMap } from './emit/write-bundle.js';
export { bundleDigest, manifestBytes, MANIFEST_SCHEMA_ID, type Manifest } from './emit/manifest.js';
export { parseBlocks, escapeFences, unescapeFences } from './render/fence.js';
export type { Diagnostic, Severity } from './diagnostics/diagnostic.js';
export { allCatalogueEntries, findCatalogueEntry } from './diagnostics/catalogue.js';
export { redact, type Redactions, type SecretSite } from './diagnostics/redact.js';
export type * from './types.js';

import type { CompileResult } from './compile.js';
import { writeBundle } from './emit/write-bundle.js';

/** Write a compiled result as `<outDir>/<bundle_id>/`; returns that directory. */
export function emitBundle(result: CompileResult, outDir: string): string {
  return writeBundle(outDir, result);
}
