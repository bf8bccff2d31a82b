/**
 * rulec as a library.
 *
 * - compile(options) → CompileResult: the bundle in memory plus diagnostics.
 * - emitBundle(result, outDir) → the directory written (atomically).
 * - openBundle(dir) → a verified bundle: contextFor(path), attachmentsFor(path).
 * - the registry: an agent runtime calls admit() (a pin on a verified, signed
 *   snapshot), then openPinned() (openBundle on the pinned digest, signatures
 *   checked); publishers call publishBundle(), startCanary(), promoteBundle(), ….
 */
export { compile, PolicyError, type CompileOptions, type CompileResult } from './compile.js';
export { openBundle, type OpenedBundle, type PathContext, type PathAttachment, type OpenOptions } from './bundle/open-bundle.js';
export { currentBundleDir } from './bundle/current-pointer.js';
export { BundleError } from './bundle/bundle-error.js';
export { writeBundle as emitBundleFiles, bundleFileMap } from './emit/write-bundle.js';
export {
  bundleDigest, manifestBytes, encodeManifest, bundleIdOf, contentOf, MANIFEST_SCHEMA_ID, BUNDLE_ID_EXCLUDED,
  type ManifestV1, type ManifestRoot, type ManifestPartRef, type EncodedManifest, type ManifestContent, type ManifestFile, type ManifestVariant,
  type ManifestAttachment, type ManifestRef, type ManifestProfileFit, type ManifestOverrun,
} from './bundle/model.js';
export { variantFor, servingDir } from './bundle/serving.js';
export { parseManifest, parseManifestRoot, parsePart, type ManifestParse, type ManifestFiles, type RootParse, type PartParse } from './bundle/parse-manifest.js';
export type { ManifestLookup } from './bundle/manifest-lookup.js';
export type { ConflictRuling } from './bundle/conflict-parts.js';
export { parseBlocks, escapeFences, unescapeFences } from './render/fence.js';
export type { Diagnostic, Severity } from './diagnostics/diagnostic.js';
export { allCatalogueEntries, findCatalogueEntry } from './diagnostics/catalogue.js';
export { redact, type Redactions, type SecretSite } from './diagnostics/redact.js';
export type * from './types.js';
export { admit, checkPin, impactOf, openPinned, verifiedLatest, type AdmitterOptions, type AdmitRequest, type Admission, type PinStatus } from './registry/admit.js';
export type { Pin } from './registry/admitter-state.js';
export {
  publish as publishBundle, startCanary, ramp as rampCanary, abort as abortCanary, promote as promoteBundle, rollback as rollbackChannel,
  deprecate as deprecateBundle, revoke as revokeBundle, refresh as refreshIndex, resolveRef,
} from './registry/ops.js';
export { LocalStore } from './registry/stores/local.js';
export { GitStore, type GitStoreOptions } from './registry/stores/git.js';
export { OciStore, type OciOptions } from './registry/stores/oci.js';
export { openStore, type OpenStoreOptions } from './registry/stores/open-store.js';
export { mirror as mirrorRegistry, type MirrorOptions, type MirrorReport } from './registry/mirror.js';
export type { Store, IndexHead } from './registry/store.js';
export { verifyRegistry, type VerifyReport } from './registry/verify.js';
export type { WriterOptions, OpOutcome } from './registry/writer.js';
export { parseTrust, type TrustPolicy, type TrustFile } from './registry/trust.js';
export { loadTrust } from './registry/load-trust.js';
export { generateKey, loadSigningKey, type SigningKey } from './registry/keys.js';
export { bucketOf, inCohort } from './registry/cohort.js';
export { RegistryError } from './registry/errors.js';
export { signedBy, type ManifestSignature } from './registry/sign.js';
export type { RegistryState, IndexDoc, Op, OpRecord, Role } from './registry/model.js';

import type { CompileResult } from './compile.js';
import { writeBundle } from './emit/write-bundle.js';

/** Write a compiled result as `<outDir>/<bundle_id>/`; returns that directory. */
export function emitBundle(result: CompileResult, outDir: string): string {
  return writeBundle(outDir, result);
}
