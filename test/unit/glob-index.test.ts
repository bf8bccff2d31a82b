import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import picomatch from 'picomatch';
import { compileGlob, GLOB_OPTIONS } from '../../src/resolve/glob-compile.js';
import { matchGlob, PathIndex } from '../../src/resolve/glob-index.js';

const DIRS = ['{{src}}', '{a}', 'a', 'b', 'src', 'docs', '.github', '.x', 'packages', 'api', 'a.b'];
const NAMES = ['x.{md}', 'x.b', 'x.1', 'x.ts', 'y.tsx', 'a.test.ts', 'index.d.ts', '.ts', '.test.ts', '.tsx', '..ts', 'README.md', 'b.md', '.md', '.env', 'src', 'docs', 'a', 'x.ts.bak', 'Makefile', 'z.TS', 'c.mdc'];

/** A file tree: no path is also a directory of another path. */
const pathSet = fc
  .uniqueArray(
    fc.tuple(fc.array(fc.constantFrom(...DIRS), { maxLength: 3 }), fc.constantFrom(...NAMES)).map(([dirs, name]) => [...dirs, name].join('/')),
    { maxLength: 40 },
  )
  .map((paths) => paths.filter((p) => !paths.some((q) => q.startsWith(`${p}/`))).sort());

const FIXED_GLOBS = [
  '**/*.ts', 'src/**', '*.{ts,tsx}', 'a/*/b.md', '**/*.test.ts', 'docs/**/*.md', '**', '*', '*.ts', '*.md',
  'src/**/*.tsx', '**/README.md', 'README.md', 'a/**', '.github/**', '**/.x/**', 'src/*', '**/*.md', 'a/b.md',
  '{src,docs}/**', '**/*.{ts,md}', '**/[ab].md', '?.md', '**/*.d.ts', 'packages/*/src/**', '**/a', 'src', 'docs/**',
  'a/**/b.md', '**/*.{tsx,ts}', '*.{md,}', 'a.b/**', '**/.*', 'src/*.ts', '**/*.TS', 'a/[!b]/*.ts', '!**/*.ts',
  '**/*.{ts,test.ts}', 'src/**/*.{d.ts,ts}', '*.{ts,ts}', '!docs', '!(*.md)',
];
/** Braces, extglobs, quotes, escapes and `|` that span or change a `/`: no segment of these is literal. */
const SPANNING_GLOBS = [
  '{a/b/src,docs}/**/*.ts', '{a,b/src/docs}/x.ts', '@(a|b/src/api)/README.md', '?(src/a/)b/*', '*(a/)b.md', '**/"src"/*.md',
  '**/"x.ts"', '**/a|b/*', 'a|b/x.ts', 'a\\.b/**', '**/a\\.b/*', './src/*.ts', './README.md', '**/{a,b/docs}/*.md',
  '{src,a/src}/**/*.{ts,tsx}', 'packages/{api,a/b}/**', '**/[ab]/src/*', '{a,b}/src/**', '**/@(src|docs)/*.md',
  // A brace without a comma is no alternation; a range is not a list of suffixes.
  '{{src}}/**/*.ts', 'src/{a}/*.ts', '{a}/**', '**/*.{md}', '*.{ts}', '**/*.{a..c}', '*.{1..3}',
];
const glob = fc.oneof(
  fc.constantFrom(...FIXED_GLOBS),
  fc.constantFrom(...SPANNING_GLOBS),
  fc
    .tuple(fc.constantFrom('', 'src/', 'a/', 'docs/', '.github/', 'packages/api/', 'a/*/', '**/', 'src/**/'), fc.constantFrom('*.ts', '*.tsx', '*.test.ts', '*.{ts,tsx}', 'README.md', '*', '**', '.ts', '*.md', 'x.ts', '.*'))
    .map(([dir, last]) => dir + last),
  // A literal segment between wildcards: narrowed by the segment index.
  fc
    .tuple(fc.constantFrom('', '**/', 'src/', 'a/*/', '*/'), fc.constantFrom(...DIRS, ...NAMES), fc.constantFrom('/**', '/*', '/**/*.ts', '/*.md', '/**/*.{ts,md}', '/x.ts'))
    .map(([head, segment, tail]) => head + segment + tail),
);

function bruteForce(paths: readonly string[], g: string): string[] {
  const test = picomatch(g, GLOB_OPTIONS);
  return paths.filter((p) => test(p)).sort();
}

describe('matchGlob', () => {
  it('agrees with matching every path against the glob', () => {
    fc.assert(
      fc.property(pathSet, fc.array(glob, { minLength: 1, maxLength: 8 }), (paths, globs) => {
        const index = new PathIndex(paths);
        for (const g of globs) expect({ g, r: matchGlob(index, g) }).toEqual({ g, r: { ok: true, matches: bruteForce(paths, g) } });
      }),
      { numRuns: 500 },
    );
  });

  it('reads a brace group that spans a slash as one segment', () => {
    // Split at every `/`, `lib}` and `**` looked like literal segments and nothing matched: a false RC3002.
    const index = new PathIndex(['lib/a.ts', 'lib/b.ts', 'src/c.ts']);
    expect(matchGlob(index, '{apps/web/src,lib}/**/*.ts')).toEqual({ ok: true, matches: ['lib/a.ts', 'lib/b.ts'] });
    expect(matchGlob(index, '**/"lib"/*.ts')).toEqual({ ok: true, matches: ['lib/a.ts', 'lib/b.ts'] });
  });

  it('agrees for literal paths, present or not', () => {
    fc.assert(
      fc.property(pathSet, fc.nat(), (paths, i) => {
        const index = new PathIndex(paths);
        const literal = paths.length > 0 ? (paths[i % paths.length] as string) : 'a/b.md';
        expect(matchGlob(index, literal)).toEqual({ ok: true, matches: bruteForce(paths, literal) });
        const absent = `${literal}x`;
        expect(matchGlob(index, absent)).toEqual({ ok: true, matches: paths.includes(absent) ? [absent] : [] });
        expect(matchGlob(index, 'no/such/file.md')).toEqual({ ok: true, matches: [] });
      }),
      { numRuns: 200 },
    );
  });

  const paths = ['.github/copilot-instructions.md', '.ts', 'README.md', 'docs/a.md', 'docs/b/c.md', 'src/a.test.ts', 'src/a.ts', 'src/b.tsx', 'srcx/a.ts'];
  const index = new PathIndex(paths);
  it.each<[string, string[]]>([
    ['**/*.ts', ['.ts', 'src/a.test.ts', 'src/a.ts', 'srcx/a.ts']],
    ['src/**', ['src/a.test.ts', 'src/a.ts', 'src/b.tsx']],
    ['*.{ts,tsx}', ['.ts']],
    ['src/*.{ts,tsx}', ['src/a.test.ts', 'src/a.ts', 'src/b.tsx']],
    ['**/*.test.ts', ['src/a.test.ts']],
    ['docs/**/*.md', ['docs/a.md', 'docs/b/c.md']],
    ['README.md', ['README.md']],
    ['docs/a.md', ['docs/a.md']],
    ['missing.md', []],
    ['**/.github/*', ['.github/copilot-instructions.md']],
  ])('table: %s', (g, matches) => {
    expect(matchGlob(index, g)).toEqual({ ok: true, matches });
  });

  it('matches dotfiles by extension, a base that is itself a file, and negated globs like picomatch', () => {
    const small = new PathIndex(['.test.ts', '.ts', 'docs', 'src/a.ts', 'src/b.md']);
    expect([
      matchGlob(small, '*.ts'),
      matchGlob(small, '*.test.ts'),
      matchGlob(small, '*.{ts,tsx}'),
      matchGlob(small, 'docs/**'),
      matchGlob(small, '!**/*.ts'),
      matchGlob(small, '!docs'),
    ]).toEqual([
      { ok: true, matches: ['.test.ts', '.ts'] },
      { ok: true, matches: ['.test.ts'] },
      { ok: true, matches: ['.test.ts', '.ts'] },
      { ok: true, matches: ['docs'] },
      { ok: true, matches: ['docs', 'src/b.md'] },
      { ok: true, matches: ['.test.ts', '.ts', 'src/a.ts', 'src/b.md'] },
    ]);
  });

  it.each(['[', 'a/[b', '**/[', ''])('reports the unparsable glob %j as ok: false, never throwing', (g) => {
    const r = matchGlob(index, g);
    expect(r.ok).toBe(false);
    expect(r).toEqual({ ok: false, error: expect.any(String) });
    expect(compileGlob(g).ok).toBe(false);
  });

  it('reports the picomatch message for a missing bracket', () => {
    expect(matchGlob(index, 'a/[b')).toEqual({ ok: false, error: 'Missing closing: "]" - use "\\\\]" to match literal characters' });
    expect(matchGlob(index, '')).toEqual({ ok: false, error: 'empty glob' });
  });
});

describe('PathIndex.withSegment', () => {
  it('lists, in sorted order, the paths under a directory that have a segment of a name', () => {
    const dirsOf = (paths: readonly string[]): string[] => ['', ...new Set(paths.flatMap((p) => p.split('/').slice(0, -1).map((_, i, a) => a.slice(0, i + 1).join('/'))))];
    fc.assert(
      fc.property(pathSet, fc.constantFrom(...DIRS, ...NAMES, 'nope'), fc.nat(), (paths, segment, pick) => {
        const index = new PathIndex(paths);
        const dirs = [...dirsOf(paths), 'zz'];
        const dir = dirs[pick % dirs.length] as string;
        const expected = paths.filter((p) => (dir === '' || p.startsWith(`${dir}/`)) && p.split('/').includes(segment));
        expect({ segment, dir, r: index.withSegment(segment, dir) }).toEqual({ segment, dir, r: expected });
      }),
      { numRuns: 1000 },
    );
  });

  it('orders paths as they sort, not as their directories do ("a.b/a/" sorts before "a/")', () => {
    const paths = ['a-b/a/z.ts', 'a.b/a/x.ts', 'a/a/y.md', 'a/x.ts', 'b/a', 'c/a/a', 'c/d.ts'].sort();
    const index = new PathIndex(paths);
    expect(index.withSegment('a')).toEqual(paths.filter((p) => p.split('/').includes('a')));
    expect(index.withSegment('a', 'c')).toEqual(['c/a/a']);
    expect(index.withSegment('a', 'a')).toEqual(['a/a/y.md', 'a/x.ts']);
  });
});

describe('PathIndex', () => {
  const index = new PathIndex(['a.md', 'a/b', 'a/b/c', 'a/bc', 'ab/x', 'b/.eslintrc.json']);
  it('lists paths under a directory, not a name prefix', () => {
    expect([index.under('a'), index.under('a/b'), index.under('zz'), index.under('')]).toEqual([
      ['a/b', 'a/b/c', 'a/bc'],
      ['a/b/c'],
      [],
      ['a.md', 'a/b', 'a/b/c', 'a/bc', 'ab/x', 'b/.eslintrc.json'],
    ]);
    expect([index.has('a/b'), index.has('a')]).toEqual([true, false]);
    expect([index.named('b'), index.named('x'), index.named('nope')]).toEqual([['a/b'], ['ab/x'], []]);
    expect([index.withSuffix('md'), index.withSuffix('json'), index.withSuffix('eslintrc.json')]).toEqual([['a.md'], ['b/.eslintrc.json'], ['b/.eslintrc.json']]);
  });
});
