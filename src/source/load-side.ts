/**
 * A diff side as a BundleView (I/O): a bundle directory is opened and
 * verified (openBundle), a git ref or the work tree is compiled.
 */
import { BundleError } from '../bundle/bundle-error.js';
import { currentBundleDir } from '../bundle/current-pointer.js';
import { openBundle } from '../bundle/open-bundle.js';
import { compile, type CompileOptions } from '../compile.js';
import { UsageError } from '../util/errors.js';
import type { Layer } from '../types.js';
import { viewOfBundle, viewOfCompile, type BundleView } from '../diff/view.js';
import { gitSource } from './repo-source.js';
import type { SideSpec } from './sides.js';
import type { CompileResult } from '../compile.js';

export interface LoadedSide {
  view: BundleView;
  /** The compile result of a compiled side (null for a bundle directory). */
  result: CompileResult | null;
  /** The cascade's layer order of a compiled side's policy. */
  layerOrder: readonly Layer[] | null;
}

export async function loadSide(side: SideSpec, options: CompileOptions & { repoDir: string }): Promise<LoadedSide> {
  if (side.kind === 'bundle') {
    let dir = side.dir;
    try {
      dir = currentBundleDir(side.dir) ?? side.dir;
      // Each text and source blob is checked when the diff first reads it (most of a bundle is never
      // read when little changed); a tampered one stops the diff (see diff.ts).
      return { view: viewOfBundle(openBundle(dir), side.label), result: null, layerOrder: null };
    } catch (e) {
      if (e instanceof BundleError) throw new UsageError(`cannot use bundle ${dir}: ${e.message} (${e.code})`);
      throw e;
    }
  }
  const isGit = side.kind === 'git';
  const result = await compile({ ...options, includeLocal: isGit ? false : options.includeLocal ?? false,
    ...(isGit ? { source: await gitSource(options.repoDir, side.commit) } : {}) });
  return { view: viewOfCompile(result, side.label, side.kind, isGit ? side.commit : null), result, layerOrder: result.policy.conflicts?.layer_order ?? null };
}
