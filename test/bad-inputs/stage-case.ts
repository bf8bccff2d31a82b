/**
 * Bad-input cases as repositories: each case's committed files plus its
 * generated ones, as a git repository, built once into the shared cache
 * (helpers/repo-cache.ts). `sharedBadInput` hands out that tree (read-only:
 * compile it, build it with `--out` elsewhere); `stageCase` a private
 * writable copy.
 */
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync, cpSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { GENERATED, type Generated } from './generated.js';
import { materialisedAt, repoRecipe, type Materialised } from '../helpers/fixture-repo.js';
import { copyTree, hashTree, sharedTree, type Recipe } from '../helpers/repo-cache.js';

export const BAD_INPUTS = import.meta.dirname;

export function badInputCases(): string[] {
  return readdirSync(BAD_INPUTS).filter((d) => existsSync(join(BAD_INPUTS, d, 'expected.json'))).sort();
}

export function badInputRecipe(name: string): Recipe {
  const committed = join(BAD_INPUTS, name, 'repo');
  let made: Generated[] | undefined;
  const generated = (): Generated[] => (made ??= GENERATED[name]?.() ?? []);
  return repoRecipe(`bad-${name}`, {
    inputs: (hash) => {
      hash.update(readFileSync(import.meta.filename));
      hashTree(hash, committed, 'committed');
      for (const g of generated()) {
        hash.update(`generated ${g.path}\0`);
        if ('symlink' in g) hash.update(`link ${g.symlink}\0`);
        else hash.update(g.bytes);
      }
    },
    files: (repo) => {
      if (existsSync(committed)) cpSync(committed, repo, { recursive: true, verbatimSymlinks: true });
      for (const g of generated()) {
        const target = join(repo, ...g.path.split('/'));
        mkdirSync(dirname(target), { recursive: true });
        if ('symlink' in g) symlinkSync(g.symlink, target);
        else writeFileSync(target, g.bytes);
      }
    },
    managedSrc: join(BAD_INPUTS, name, 'managed'),
    useGit: true,
  });
}

/** The shared, read-only repository of a bad-input case. Never write into it, never remove it. */
export function sharedBadInput(name: string): Materialised {
  return materialisedAt(sharedTree(badInputRecipe(name)));
}

/** A private, writable copy of a bad-input case; the caller removes `m.dir`. */
export function stageCase(name: string): Materialised {
  return materialisedAt(copyTree(sharedTree(badInputRecipe(name))));
}
