/**
 * `explain` without `--bundle`: the repository's own bundle (<repo>/bundles/current)
 * when it is up to date with the work tree, otherwise a compile on the fly.
 * Loaded only then: the freshness check discovers the repository and the
 * compile loads the pipeline, which is most of the start-up cost.
 */
import { join } from 'node:path';
import type { CompileOptions } from '../../compile.js';
import type { OpenedBundle } from '../../bundle/open-bundle.js';
import { CURRENT_POINTER, parseCurrentPointer } from '../../bundle/layout.js';
import { variantFor } from '../../bundle/serving.js';
import { policyDigest } from '../../config/policy.js';
import { readConfined } from '../../confined/read-confined.js';
import { classifyPath } from '../../formats/formats.js';
import { explainPath } from '../../report/explain.js';
import { UsageError } from '../../util/errors.js';
import { sha256Hex } from '../../util/hash.js';
import { dirnameOf } from '../../util/posix-path.js';
import type { Parsed } from '../args.js';
import type { Io } from '../io.js';
import { bundleAnswer, openVerified, verified, type Answer } from './explain-answer.js';
import { cacheWanted } from './shared.js';
import { realPath } from '../../util/real-path.js';

export async function workTreeAnswer(values: Parsed['values'], options: CompileOptions & { repoDir: string }, io: Io): Promise<Answer> {
  const dir = !values.fresh && !options.userHome ? currentDir(options.repoDir) : null;
  const bundle = dir === null ? null : openVerified(dir);
  if (bundle !== null && (await isFresh(bundle, options))) return bundleAnswer(bundle, io);
  const [{ compileCounted }, { openBuildCache }] = await Promise.all([import('../../cache/cached-compile.js'), import('../../cache/build-cache.js')]);
  const cache = await openBuildCache(options.repoDir, cacheWanted(values), false);
  const result = await compileCounted(options, cache);
  // explain prints no diagnostics: what the cache has to say goes to stderr.
  for (const n of cache.notes) io.err(`rulec: note ${n.code}: ${n.message}\n`);
  const texts = new Map(result.variants.map((v) => [v.id, v.text]));
  return {
    bundleId: result.manifest.bundle_id, explain: (path, directory) => explainPath(result.manifest, path, directory), redactions: result.redactions, origin: 'compiled', originText: 'compiled from the work tree',
    textFor: (path) => texts.get(variantFor(result.manifest.index, path)) ?? '',
    localNotes: (path) => result.discovered.localExcluded
      .filter((f) => { const d = dirnameOf(f); return d === '' || path === d || path.startsWith(`${d}/`); })
      .map((f) => `${f} — ${result.discovered.ignored.includes(f) && !classifyPath(f)?.spec.personal
        ? 'ignored by git (agents still load it; unreviewed, local layer)' : 'local (personal) file'}; pass --include-local to include it`),
  };
}

/** The bundle is fresh when the same policy and the same instruction files (by digest) would be compiled now. */
async function isFresh(bundle: OpenedBundle, options: CompileOptions & { repoDir: string }): Promise<boolean> {
  const m = bundle.root;
  if (m.layers.local !== (options.includeLocal ?? false)) return false;
  const [{ compilePolicy }, { discover }] = await Promise.all([import('../../compile-options.js'), import('../../discover/discover.js')]);
  // An invalid policy is a configuration failure (exit 2), never silently the built-in one.
  const policy = compilePolicy({ repoDir: options.repoDir, ...(options.policyFile ? { policyFile: options.policyFile } : {}) });
  if (policyDigest(policy) !== m.policy.digest) return false;
  const found = await discover({ repoDir: options.repoDir, managedDir: options.managedDir ?? null, includeLocal: options.includeLocal ?? false, policy });
  // Discovery lists instruction files only (imports are read later), so compare it
  // with the manifest's files that are not imports.
  const listed = Object.entries(verified(() => bundle.lookup.files(), bundle.dir)).filter(([, f]) => f.activation !== 'import');
  const now = new Map(found.value.files.map((f) => [f.id, `sha256:${sha256Hex(f.bytes)}`]));
  return now.size === listed.length && listed.every(([id, f]) => now.get(id) === f.sha256);
}

/**
 * The bundle directory `<repo>/bundles/current` names, or null when there is none. The pointer
 * is a file in the repository like any other input: read confined (a FIFO or a link out is
 * refused), and it must be one bundle id, so it can never lead out of bundles/.
 */
function currentDir(repoDir: string): string | null {
  const rel = `bundles/${CURRENT_POINTER}`;
  const read = readConfined(realPath(repoDir), rel, rel, 256);
  if (!read.ok && read.missing) return null;
  const id = read.ok ? parseCurrentPointer(Buffer.from(read.bytes).toString('utf8')) : null;
  if (id === null) throw new UsageError(`cannot use bundle: ${rel} ${read.ok ? 'does not hold a bundle id' : read.diagnostic.message}`);
  return join(repoDir, 'bundles', id);
}
