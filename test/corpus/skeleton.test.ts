/**
 * The test suite builds corpus skeletons with helpers/corpus-skeleton.ts, not
 * with the corpus's rebuild.sh: this holds the two to the same commit id (so
 * the same tree: paths, modes, bytes, links) and a clean work tree, on a small
 * entry made here with every kind of path rebuild.sh handles, and on two real
 * entries with symbolic links. Skips when the corpus is absent.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { CORPUS, corpusEntries, corpusRepo } from '../helpers/corpus.js';
import { skeletonCommands } from '../helpers/corpus-skeleton.js';
import { runCommands } from '../helpers/repo-cache.js';

const present = corpusEntries().length > 0;
const scratch = mkdtempSync(join(tmpdir(), 'rulec-skeleton-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const git = (repo: string, ...args: string[]): string => execFileSync('git', args, { cwd: repo, encoding: 'utf8' }).trim();

/** rebuild.sh's skeleton of `src`, in a new directory. */
function rebuilt(src: string): string {
  const out = mkdtempSync(join(scratch, 'rebuilt-'));
  execFileSync('bash', [join(CORPUS, 'rebuild.sh'), src, out], { stdio: 'pipe' });
  return out;
}

/** An entry with spaces, quotes, a backslash, a leading quote, non-ASCII and deep paths; an executable and a linked file; links from SOURCE.json. */
function syntheticEntry(): string {
  const src = join(scratch, 'owner__name');
  const paths = ['README.md', 'AGENTS.md', 'docs/a b/c.md', 'docs/"quoted".md', '"lead', 'back\\slash.txt', 'ünï/cödé.ts',
    'deep/1/2/3/4/5/x.ts', 'scripts/run.sh', 'CLAUDE.md', 'packages/p/CLAUDE.md', 'packages/p/AGENTS.md'];
  mkdirSync(join(src, 'files', 'scripts'), { recursive: true });
  mkdirSync(join(src, 'files', 'packages', 'p'), { recursive: true });
  writeFileSync(join(src, 'paths.txt.gz'), gzipSync(`${paths.join('\n')}\n`));
  writeFileSync(join(src, 'files', 'AGENTS.md'), '# Agents\n\n- Use pnpm.\n');
  writeFileSync(join(src, 'files', 'scripts', 'run.sh'), '#!/bin/sh\necho hi\n');
  chmodSync(join(src, 'files', 'scripts', 'run.sh'), 0o755);
  writeFileSync(join(src, 'files', 'packages', 'p', 'AGENTS.md'), '# P\r\n\r\nCRLF kept as bytes.\r\n');
  symlinkSync('AGENTS.md', join(src, 'files', 'packages', 'p', 'CLAUDE.md'));
  writeFileSync(join(src, 'files', 'CLAUDE.md'), 'AGENTS.md'); // a copy that could not keep the link: SOURCE.json restores it
  const source = { repo: 'owner/name', commit: 'a'.repeat(40), symlinks: { 'CLAUDE.md': 'AGENTS.md', 'new/dir/link.md': '../../AGENTS.md' } };
  writeFileSync(join(src, 'SOURCE.json'), `${JSON.stringify(source, null, 2)}\n`);
  return src;
}

describe.skipIf(!present)('corpus skeletons', () => {
  it('a made-up entry: the same commit as rebuild.sh, and a clean work tree', () => {
    const src = syntheticEntry();
    const ours = mkdtempSync(join(scratch, 'ours-'));
    runCommands(ours, skeletonCommands(src, '.'));
    const theirs = rebuilt(src);
    expect(git(ours, 'rev-parse', 'HEAD')).toBe(git(theirs, 'rev-parse', 'HEAD'));
    expect(git(ours, 'status', '--porcelain')).toBe('');
    // The cases above are in it: links from SOURCE.json and from files/, an executable.
    expect(git(ours, 'ls-files', '-s', 'CLAUDE.md', 'new/dir/link.md', 'packages/p/CLAUDE.md', 'scripts/run.sh').split('\n').map((l) => l.slice(0, 6)))
      .toEqual(['120000', '120000', '120000', '100755']);
  });

  // Both have links in SOURCE.json: pydantic-ai ten, zod two.
  it.each(['colinhacks__zod', 'pydantic__pydantic-ai'])('%s: the same commit as rebuild.sh, and a clean work tree', (entry) => {
    const repo = corpusRepo(entry);
    expect(git(repo, 'rev-parse', 'HEAD')).toBe(git(rebuilt(join(CORPUS, entry)), 'rev-parse', 'HEAD'));
    expect(git(repo, 'status', '--porcelain')).toBe('');
  });
});
