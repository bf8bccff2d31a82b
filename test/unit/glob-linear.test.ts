import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import picomatch from 'picomatch';
import { linearGlob } from '../../src/resolve/glob-linear.js';
import { compileGlob, GLOB_OPTIONS } from '../../src/resolve/glob-compile.js';

const NAMES = ['a', 'b', 'ab', 'src', '.a', '.', '..', 'a.', 'x.', '..a', 'x.ts', 'a.test.ts', '.ts', 'a.b.c', 'aab', 'ba', '{a}', 'a,b', '{', 'ü', '😀', 'a*b'];
const path = fc.oneof(fc.constant(''), fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 5 }).map((s) => s.join('/')));

/** Pieces of the dialect and its edges: a segment is one or more of them. */
const PIECES = ['a', 'b', 'x', '.', 'ts', '*', '?', '.ts', '*.*', '.*', 'src', '{a,b}', '{ts,x}', '{a}', '{a,{b,c}}', '{a/b,c}', '{,a}', 'ü', '$', '^', '+', '@', '!', ','];
const segment = fc.oneof(
  { weight: 1, arbitrary: fc.constant('**') },
  { weight: 6, arbitrary: fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 4 }).map((p) => p.join('')) },
);
const glob = fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => s.join('/'));

function picomatchSays(g: string, p: string): boolean | null {
  try {
    return picomatch(g, GLOB_OPTIONS)(p);
  } catch {
    return null;
  }
}

describe('linearGlob', () => {
  it('matches exactly what picomatch matches, for every glob of its dialect', () => {
    fc.assert(
      fc.property(glob, fc.array(path, { minLength: 1, maxLength: 12 }), (g, paths) => {
        const test = linearGlob(g);
        fc.pre(test !== null);
        // compileGlob skips picomatch for these: picomatch must compile every glob of the dialect.
        expect({ g, compiles: picomatchSays(g, '') !== null }).toEqual({ g, compiles: true });
        for (const p of paths) expect({ g, p, match: (test as (p: string) => boolean)(p) }).toEqual({ g, p, match: picomatchSays(g, p) });
      }),
      { numRuns: 1000 },
    );
  });

  it.each([
    ['**/*.ts', ['a.ts', 'src/a.ts', 'src/x/a.ts', '.a/b.ts'], ['a.tsx', 'src/a.ts/b']],
    ['src/**', ['src', 'src/a', 'src/a/b'], ['srcx', 'a/src']],
    ['**/README.md', ['README.md', 'a/README.md'], ['README.mdx']],
    ['*.{ts,tsx}', ['a.ts', 'b.tsx', '.ts'], ['a/b.ts', 'a.js']],
    ['packages/*/src/**/*theme*', ['packages/a/src/theme.ts', 'packages/a/src/x/darkthemeX'], ['packages/a/b/src/theme.ts']],
    ['{src,lib}/**/*.ts', ['src/a.ts', 'lib/x/b.ts'], ['app/a.ts']],
    ['*', ['a', '.a'], ['a/b', '.', '..', '']],
    // picomatch's own readings, kept: a star after a dot ending a star-first glob takes a character;
    // a trailing `/**` after a segment ending in a star needs a segment below it.
    ['*.*', ['a.b', '.a'], ['a.', 'a']],
    ['**/*.*', ['x/a.b'], ['x/a.']],
    ['src/*.*', ['src/a.', 'src/a.b'], ['src/a']],
    ['*x.*', ['ax.', 'x.b'], ['x']],
    ['a.*', ['a.', 'a.b'], ['a']],
    ['*/**', ['a/b'], ['a']],
    ['a/**', ['a', 'a/b'], ['ab']],
  ])('%s', (g, yes, no) => {
    const test = linearGlob(g) as (p: string) => boolean;
    expect(test).not.toBeNull();
    for (const p of yes) expect([p, test(p)]).toEqual([p, true]);
    for (const p of no) expect([p, test(p)]).toEqual([p, false]);
  });

  it('leaves brackets, extglobs, quotes, escapes, ranges, negation and ./ to the caller', () => {
    for (const g of ['[ab].md', '@(a|b)', '"a"/*', 'a\\*', '{1..3}', 'x{a..c}', '!a', './a', '{*,a}', '**a', 'a//b', '.*']) expect([g, linearGlob(g)]).toEqual([g, null]);
  });
});

describe('compileGlob never backtracks exponentially', () => {
  // Shapes that take picomatch seconds to minutes on a path they do not match (12 stars: 45 s on a
  // 41-character name; 10 globstars: 68 s on 40 segments).
  it.each([
    ['a run of stars in one segment', '*a'.repeat(40), `${'a'.repeat(250)}b`],
    ['a run of globstars', `${Array(40).fill('**/a').join('/')}/b`, `${Array(200).fill('a').join('/')}/c`],
    ['stars inside a brace list', `{${'*a'.repeat(30)},x}`, `${'a'.repeat(250)}b`],
  ])('%s', (_label, g, p) => {
    const c = compileGlob(g);
    const t0 = performance.now();
    const answer = c.ok ? c.test(p) : false;
    expect(answer).toBe(false);
    // A bound in operations, not in time: the linear matcher answers these in well under a millisecond.
    expect(performance.now() - t0).toBeLessThan(1000);
  });

  it('refuses a glob outside the dialect with more wildcards than backtracking can afford, saying why', () => {
    const c = compileGlob('[ab]*a*a*a*a');
    expect(c.ok).toBe(false);
    expect(c.ok ? '' : c.error).toMatch(/^4 wildcards with brackets, extglobs.*at most 2 such/);
    expect(compileGlob('src/[ab]*/**').ok).toBe(true);
    // Counted in what picomatch makes of the glob: a negated extglob is a loop, and so is a star
    // after an escaped backslash (18 of the first took picomatch 164 s on one name).
    for (const g of ['!(b)'.repeat(18) + 'b', '\\\\*a'.repeat(14)]) expect([g, compileGlob(g).ok]).toEqual([g, false]);
    expect(compileGlob('!**/*.ts').ok).toBe(true);
  });
});

describe('a hostile rule glob in a repository', () => {
  it('resolves at once: 40 stars against a 250-character name, and 40 globstars against a deep path', async () => {
    const { resolveTree } = await import('../conflicts/tree.js');
    const tree = {
      'AGENTS.md': '# Root\n\n- Use pnpm.\n',
      '.claude/rules/stars.md': `---\npaths: ["${'*a'.repeat(40)}"]\n---\n\n- Stars.\n`,
      '.claude/rules/globstars.md': `---\npaths: ["${Array(40).fill('**/a').join('/')}/b"]\n---\n\n- Globstars.\n`,
    };
    const paths = [`${'a'.repeat(250)}b`, `${Array(200).fill('a').join('/')}/c`, 'src/x.ts'];
    const t0 = performance.now();
    const res = resolveTree(tree, paths);
    expect(res.attachments.map((a) => a.matches)).toEqual([0, 0]);
    // picomatch took minutes on each; the bound is loose so a loaded machine cannot fail it.
    expect(performance.now() - t0).toBeLessThan(5000);
  });
});
