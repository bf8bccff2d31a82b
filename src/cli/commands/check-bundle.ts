/** Does `<out>/<bundle_id>/` hold exactly the files this result would write? */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { CompileResult } from '../../compile.js';
import { bundleFileMap } from '../../emit/write-bundle.js';

export function bundleMatches(outDir: string, result: CompileResult): boolean {
  const dir = join(outDir, result.manifest.bundle_id);
  const want = bundleFileMap(result);
  try {
    const have = [...readdirSync(join(dir, 'context')).map((f) => `context/${f}`), ...readdirSync(join(dir, 'attachments')).map((f) => `attachments/${f}`), 'manifest.json'];
    if (have.length !== want.size) return false;
    for (const [rel, text] of want) {
      // The source block (commit, dirty) legitimately differs between the commit that
      // wrote a bundle and later ones; everything else must match byte for byte.
      const onDisk = readFileSync(join(dir, rel), 'utf8');
      if (rel === 'manifest.json' ? withoutSource(onDisk) !== withoutSource(text) : onDisk !== text) return false;
    }
    return true;
  } catch {
    return false;
  }
}

function withoutSource(manifest: string): string {
  const { source: _s, revision: _r, ...rest } = JSON.parse(manifest) as Record<string, unknown>;
  return JSON.stringify(rest);
}
