/** Does `<out>/<id>/` hold exactly the files of the bundle `id` a build made? */
import { join } from 'node:path';
import { BundleError } from '../../bundle/bundle-error.js';
import { openBundle } from '../../bundle/open-bundle.js';

/**
 * The directory is named by the bundle id, which hashes the whole content;
 * only provenance (commit, dirty, revision) may differ from this build's. So
 * the bundle matches when it verifies and its id is this build's id.
 */
export function bundleMatches(outDir: string, id: string): boolean {
  try {
    const opened = openBundle(join(outDir, id), { verify: 'all' });
    return opened.bundleId === id;
  } catch (e) {
    if (e instanceof BundleError) return false;
    throw e;
  }
}
