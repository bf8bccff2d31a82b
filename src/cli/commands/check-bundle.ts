/** Does `<out>/<bundle_id>/` hold exactly the files this result would write? */
import { join } from 'node:path';
import type { CompileResult } from '../../compile.js';
import { BundleError, openBundle } from '../../bundle/open-bundle.js';

/**
 * The directory is named by the bundle id, which hashes the whole content;
 * only provenance (commit, dirty, revision) may differ from this build's. So
 * the bundle matches when it verifies and its id is this build's id.
 */
export function bundleMatches(outDir: string, result: CompileResult): boolean {
  try {
    const opened = openBundle(join(outDir, result.manifest.bundle_id), { verify: 'all' });
    return opened.bundleId === result.manifest.bundle_id;
  } catch (e) {
    if (e instanceof BundleError) return false;
    throw e;
  }
}
