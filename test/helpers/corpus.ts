/**
 * The real-world corpus (../shared/real-world-corpus beside the checkout, or
 * /work/shared/real-world-corpus): each entry rebuilt once as the skeleton
 * git repository its rebuild.sh makes (corpus-skeleton.ts says how), into the
 * shared cache (repo-cache.ts), and shared read-only by every test that
 * compiles it. Never copy corpus files into the project.
 */
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { SKELETON_BUILDER, skeletonCommands } from './corpus-skeleton.js';
import { hashTree, PROJECT_ROOT, sharedTree, type Recipe } from './repo-cache.js';

export const CORPUS = [join(PROJECT_ROOT, '..', 'shared', 'real-world-corpus'), '/work/shared/real-world-corpus']
  .find((d) => existsSync(join(d, 'rebuild.sh'))) ?? join(PROJECT_ROOT, '..', 'shared', 'real-world-corpus');

/** Entries that rebuild.sh can rebuild (a paths.txt.gz and a files/ directory). */
export function corpusEntries(): string[] {
  if (!existsSync(join(CORPUS, 'rebuild.sh'))) return [];
  return readdirSync(CORPUS).filter((d) => existsSync(join(CORPUS, d, 'paths.txt.gz')) && existsSync(join(CORPUS, d, 'files'))).sort();
}

export function corpusRecipe(entry: string): Recipe {
  return {
    id: `corpus-${entry}`,
    inputs: (hash) => {
      hashTree(hash, join(CORPUS, 'rebuild.sh'), 'rebuild.sh');
      hashTree(hash, SKELETON_BUILDER, 'corpus-skeleton.ts');
      hashTree(hash, join(CORPUS, entry), entry);
    },
    prepare: (root) => mkdirSync(join(root, 'repo')),
    commands: () => skeletonCommands(join(CORPUS, entry), 'repo'),
  };
}

/** The entry's skeleton repository, shared and read-only: compile it with `outDir` elsewhere. */
export function corpusRepo(entry: string): string {
  return join(sharedTree(corpusRecipe(entry)), 'repo');
}
