/**
 * What is never an input, as data: the bundle output directory of this run
 * (as a prefix below the repository), the build cache (`.rulec/cache/`,
 * always) and the policy's `discover.exclude` globs. Discovery records them in its result; every reader of the repository
 * (discovery itself, import following) asks excluder() of the same record.
 */
import { anyGlob } from '../resolve/glob-compile.js';
import { isBundleOutput, outputPrefix } from './output-dir.js';

/** rulec's build cache below the repository (src/cache/cache-dir.ts): rulec's own output, never an input. */
export const CACHE_PREFIX = '.rulec/cache/';

export interface Exclusions {
  /** The output directory relative to the repository, with a trailing `/`, when it lies inside it. */
  outPrefix: string | null;
  /** Policy `discover.exclude` (validated with the policy, policy-checks.ts). */
  globs: string[];
}

export function exclusionsOf(rootReal: string, outDir: string | undefined, globs: readonly string[]): Exclusions {
  return { outPrefix: outputPrefix(rootReal, outDir), globs: [...globs] };
}

/** The predicate of a record: true for a repo-relative path that is not an input (compiled once per record). */
export function excluder(x: Exclusions): (path: string) => boolean {
  // The policy's check has refused a glob compileGlob cannot compile; one that slipped past names no path.
  const byPolicy = anyGlob(x.globs);
  const prefix = x.outPrefix;
  return (p) => (prefix !== null && p.startsWith(prefix)) || p.startsWith(CACHE_PREFIX) || isBundleOutput(p) || byPolicy(p);
}
