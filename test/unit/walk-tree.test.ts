/**
 * walkTree (src/discover/walk.ts): the listing of a tree that is not a git work tree. A name
 * that is not UTF-8 (a byte like 0xFF), of a file or of any directory above it, is listed under
 * its decoded string and mapped to its path with the bad bytes shown as \xNN; the walk descends
 * into a directory so named by its bytes; links are never descended; ignored names are skipped
 * at any depth, below such a directory too.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { walkTree } from '../../src/discover/walk.js';

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** A tree from entries: a path ending in `/` is a directory, `->` makes a link; `\xNN` in a path is that byte. */
function tree(entries: readonly string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'rulec-walk-'));
  made.push(dir);
  const bytes = (path: string): Buffer => Buffer.concat([Buffer.from(`${dir}/`),
    ...path.split(/(\\x[0-9a-f]{2})/).map((part) => (/^\\x[0-9a-f]{2}$/.test(part) ? Buffer.from([parseInt(part.slice(2), 16)]) : Buffer.from(part)))]);
  for (const e of entries) {
    const [path, target] = e.split(' -> ') as [string, string | undefined];
    if (target !== undefined) symlinkSync(target, bytes(path));
    else if (path.endsWith('/')) mkdirSync(bytes(path), { recursive: true });
    else writeFileSync(bytes(path), 'x\n');
  }
  return dir;
}

const CASES: { name: string; entries: string[]; ignore?: string[]; listed: string[]; undecodable: [string, string[]][] }[] = [
  { name: 'UTF-8 names only', entries: ['a/', 'a/AGENTS.md', 'b.md', 'é/', 'é/x.md'], listed: ['a/AGENTS.md', 'b.md', 'é/x.md'], undecodable: [] },
  { name: 'a file so named', entries: ['x\\xfe.md', 'ok.md'], listed: ['ok.md', 'x\uFFFD.md'], undecodable: [['x\uFFFD.md', ['x\\xfe.md']]] },
  {
    name: 'below a directory so named, at any depth',
    entries: ['src\\xff/', 'src\\xff/AGENTS.md', 'src\\xff/deep/', 'src\\xff/deep/CLAUDE.md', 'src\\xff/deep/in\\xfe/', 'src\\xff/deep/in\\xfe/a.md'],
    listed: ['src\uFFFD/AGENTS.md', 'src\uFFFD/deep/CLAUDE.md', 'src\uFFFD/deep/in\uFFFD/a.md'],
    undecodable: [['src\uFFFD/AGENTS.md', ['src\\xff/AGENTS.md']], ['src\uFFFD/deep/CLAUDE.md', ['src\\xff/deep/CLAUDE.md']], ['src\uFFFD/deep/in\uFFFD/a.md', ['src\\xff/deep/in\\xfe/a.md']]],
  },
  {
    name: 'ignored names and links below a directory so named',
    entries: ['d\\xff/', 'd\\xff/node_modules/', 'd\\xff/node_modules/AGENTS.md', 'd\\xff/up -> ..', 'd\\xff/keep.md'],
    ignore: ['node_modules'],
    listed: ['d\uFFFD/keep.md', 'd\uFFFD/up'],
    undecodable: [['d\uFFFD/keep.md', ['d\\xff/keep.md']], ['d\uFFFD/up', ['d\\xff/up']]],
  },
  // Three names that decode to one string: listed once, each bad one noted, none hiding another.
  {
    name: 'names that decode alike',
    entries: ['d\\xff/', 'd\\xff/a.md', 'd\\xfe/', 'd\\xfe/a.md', 'd\uFFFD/', 'd\uFFFD/a.md'],
    listed: ['d\uFFFD/a.md'],
    undecodable: [['d\uFFFD/a.md', ['d\\xfe/a.md', 'd\\xff/a.md']]],
  },
  // U+FFFD itself is a valid name (EF BF BD): nothing to report.
  { name: 'a name holding U+FFFD', entries: ['\uFFFD/', '\uFFFD/a.md'], listed: ['\uFFFD/a.md'], undecodable: [] },
];

describe('walkTree', () => {
  it.each(CASES)('$name', ({ entries, ignore, listed, undecodable }) => {
    const found = new Map<string, Set<string>>();
    expect(walkTree(tree(entries), ignore ?? [], found)).toEqual(listed);
    expect([...found].map(([k, v]) => [k, [...v].sort()]).sort()).toEqual(undecodable);
  });
});
