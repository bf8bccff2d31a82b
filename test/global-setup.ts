/**
 * Vitest global setup: build every shared test repository that is not in the
 * cache yet (golden fixtures with and without git, bad-input cases, the
 * real-world corpus), three at a time, before any test file runs — once per
 * run instead of once per test, and not at all when the inputs are unchanged
 * since the last run (of this checkout or another). Trees no run has used for
 * two days are removed. See helpers/repo-cache.ts.
 */
import { badInputCases, badInputRecipe } from './bad-inputs/stage-case.js';
import { corpusEntries, corpusRecipe } from './helpers/corpus.js';
import { caseRecipe, fixtureCases } from './helpers/fixture-repo.js';
import { BASE_PREFIX, buildTrees, CACHE_ROOT, COPY_PREFIX, pruneTrees, removeOrphans, touchTrees } from './helpers/repo-cache.js';

const UNUSED_FOR = 2 * 24 * 3600 * 1000;

export default async function setup(): Promise<() => void> {
  const recipes = [
    ...fixtureCases().flatMap((name) => [caseRecipe(name, true), caseRecipe(name, false)]),
    ...badInputCases().map(badInputRecipe),
    ...corpusEntries().map(corpusRecipe),
  ];
  const started = performance.now();
  touchTrees(recipes);
  const pruned = pruneTrees(UNUSED_FOR);
  const built = await buildTrees(recipes, 3);
  if (built.length > 0 || pruned > 0) {
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    process.stderr.write(`test repositories: built ${built.length} of ${recipes.length}, removed ${pruned} unused, in ${seconds} s (${CACHE_ROOT})\n`);
  }
  // Git bases diff/history.ts made per worker (vitest ends its workers without an 'exit' event) and
  // tree copies a test did not remove were left behind, hundreds per run. Those of gone processes
  // are removed here and at the teardown; a worker still alive at the teardown leaves its own to
  // the next run's setup.
  const orphans = (): void => {
    for (const prefix of [BASE_PREFIX, COPY_PREFIX]) removeOrphans(prefix);
  };
  orphans();
  return orphans;
}
