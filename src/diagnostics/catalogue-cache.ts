/** Codes of the build cache (`.rulec/cache/`, src/cache): notes only, never a reason to fail. */
import type { CatalogueEntry } from './catalogue-entry.js';

export const CACHE_CODES: CatalogueEntry[] = [
  { code: 'RC1009', severity: 'info', title: 'cache file ignored',
    hint: 'nothing to do: rulec computed everything without it, and the next build rewrites it; rm -rf .rulec/cache is always safe',
    explanation: 'A file of the build cache (.rulec/cache/) was not used: it is damaged or cut short (its size or sha256 does not match its header, as after a crash or a full disk), a symbolic link, or its content is not what rulec writes. rulec computed everything it would have taken from the file, so the bundle and the report are those of a run without a cache; a build replaces the file (lint and explain never write the cache). A file written by another build of rulec or under another policy is stale, not damaged: it is not used, and replaced, without a note. The cache only ever saves time; it never changes a result.' },
  { code: 'RC1010', severity: 'info', title: 'build cache not used',
    hint: 'nothing to do for this build (it ran as with --no-cache); to use the cache, build in a git work tree where .rulec/cache is a plain directory git does not track (git rm -r --cached .rulec/cache; add .rulec/cache/ to .gitignore)',
    explanation: 'The build cache (.rulec/cache/) is not used at all: git tracks files in it, .rulec or .rulec/cache is a symbolic link, a submodule or not a directory, or git cannot list the directory (no work tree, as in a tarball or a build context without .git, or an owner git refuses), so nothing shows that no commit planted the cache. A committed cache comes from whoever wrote the commit — a pull request could plant token counts or a build record that make rulec write a wrong bundle — so it is never read, and never written to. The build runs as with --no-cache.' },
  { code: 'RC1011', severity: 'info', title: 'build cache not written',
    explanation: 'The build could not write its cache (.rulec/cache/): the directory is read-only, the disk is full, or a file is in the way. The bundle and the report are unaffected; the next build is as slow as this one.' },
];
