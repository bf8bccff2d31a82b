/**
 * attachmentsMatching compiles only the globs that could match a path; what it
 * answers must be exactly what compiling every glob answers.
 */
import fc from 'fast-check';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { attachmentsMatching } from '../../src/bundle/manifest-lookup.js';
import type { ManifestAttachment } from '../../src/bundle/model.js';
import { compileGlob, GLOB_OPTIONS } from '../../src/resolve/glob-compile.js';
import { globShape, literalDir } from '../../src/resolve/glob-shape.js';
import { isWithin } from '../../src/util/posix-path.js';

const GLOBS = [
  '**', '*', '**/*', '*.md', '**/*.ts', '**/*.{ts,tsx}', '**/*.test.ts', 'src/**', 'src/**/*.ts', 'src/*.ts', 'src/api/**/*.{ts,tsx}',
  'docs/README.md', 'docs/**/README.md', 'README.md', './src/**', 'src/', 'src', '!src/**', '!**/*.md', 'src/\\*.ts', 'src/[ab].ts',
  '{src,lib}/**', 'packages/*/src/**', 'packages/**/AGENTS.md', '.github/**', '**/.env', 'a/b/c/**/d/*.js', '**/fixtures/**', '@(src|lib)/**',
  'src/**/index.ts', 'test/**', 'src/**/*.d.ts', 'legacy/**', '**/*.', '*.*',
  // A `/` inside braces or an extglob, quotes, `|`: the last segment is not what a split at `/` says.
  '{src/api,lib}/**/*.ts', '@(docs|src/api)/x.ts', '**/"README.md"', '**/a|README.md', '{docs/a,src}/README.md', '**/"index.ts"',
  // A comma-less brace is literal text to the matcher, which still reads the wildcards after it.
  '{{slug}}/**/*.py', 'src/{lib}/*.ts',
];
const PATHS = [
  '', 'README.md', 'src', 'src/a.ts', 'src/a.tsx', 'src/b.md', 'src/*.ts', 'src/api/x.ts', 'src/api/v1/y.tsx', 'src/index.ts', 'src/deep/index.ts',
  'docs/README.md', 'docs/a/README.md', 'lib/a.js', 'packages/p/src/a.ts', 'packages/p/AGENTS.md', '.github/workflows/ci.yml', 'x/.env',
  'a/b/c/d/e.js', '{{slug}}/src/a.py', 'src/{lib}/a.ts', 'docs/a/README.md', 'src/README.md', 'lib/b.ts', 'a/b/c/x/d/e.js', 'test/fixtures/a.ts', 'src/types.d.ts', 'legacy', 'legacy/old.md', 'file.', 'src/a.test.ts',
];

describe('attachmentsMatching', () => {
  it('answers what compiling every glob answers, for every glob and path of the table', () => {
    const attachments: Record<string, ManifestAttachment> = {};
    GLOBS.forEach((g, i) => {
      attachments[`a-${String(i).padStart(16, '0')}`] = { sources: [], globs: [g], bytes: 0, tokens: 0, sha256: '' };
    });
    attachments['a-ffffffffffffffff'] = { sources: [], globs: ['src/**/*.md', 'lib/**'], bytes: 0, tokens: 0, sha256: '' };
    for (const path of PATHS) {
      const want = Object.entries(attachments).filter(([, a]) => picomatch(a.globs, GLOB_OPTIONS)(path)).map(([id]) => id);
      expect({ path, ids: attachmentsMatching(attachments, path).map(([id]) => id) }).toEqual({ path, ids: want });
    }
  });
});

/** Globs built from pieces of glob syntax in any order, after literal directories or not. */
const PIECES = ['src', 'a', 'docs', 'a.b', '.x', '', '*', '**', '?', '[ab]', '[!a]', '{a,b}', '{a}', '{a/b,c}', '@(a|b)', '!(a)', '+(a)', '"a"', 'a|b', '\\*', '.', '..', '*.ts', '*.{ts,md}', 'x.ts', '!'];
const anyGlob = fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 5 }).map((parts) => parts.join('/'))
  .chain((g) => fc.constantFrom(g, `./${g}`, `/${g}`, `!${g}`, `${g}/`, `src/${g}`, `a/b/${g}`));
const anyPath = fc.array(fc.constantFrom('src', 'a', 'b', 'docs', 'a.b', '.x', 'x.ts', 'y.md', '*', '{a}', '"a"', 'a|b', 'c'), { minLength: 1, maxLength: 5 })
  .map((parts) => parts.join('/'));

describe('literalDir', () => {
  it('holds every path a glob matches', () => {
    fc.assert(fc.property(anyGlob, fc.array(anyPath, { maxLength: 20 }), (glob, paths) => {
      let test: (p: string) => boolean;
      try {
        test = picomatch(glob, GLOB_OPTIONS);
      } catch {
        return; // an invalid glob matches nothing
      }
      const dir = literalDir(glob);
      for (const p of [...paths, ...paths.map((q) => `${dir}/${q}`)]) if (test(p)) expect({ glob, p, within: isWithin(p, dir) }).toEqual({ glob, p, within: true });
    }), { numRuns: 2000 });
  });

  it('is the scan\'s base or a directory above it, where the glob is narrowed at all', () => {
    fc.assert(fc.property(anyGlob, (glob) => {
      const shape = globShape(glob);
      if (shape !== null) expect({ glob, base: shape.base, within: isWithin(shape.base, literalDir(glob)) }).toEqual({ glob, base: shape.base, within: true });
    }), { numRuns: 2000 });
    expect(['packages/pkg-1/src/**/*.ts', 'docs/README.md', '**/*.md', './src/**', '!src/**', 'src/a|b/*', 'a/b\\*/c'].map(literalDir))
      .toEqual(['packages/pkg-1/src', 'docs', '', '', '', '', '']);
  });

  it('leaves attachmentsMatching what compiling every glob answers, for generated globs', () => {
    fc.assert(fc.property(fc.array(anyGlob, { minLength: 1, maxLength: 6 }), fc.array(anyPath, { maxLength: 10 }), (globs, paths) => {
      const attachments: Record<string, ManifestAttachment> = {};
      globs.forEach((g, i) => {
        try {
          picomatch(g, GLOB_OPTIONS);
        } catch {
          return;
        }
        attachments[`a-${String(i).padStart(16, '0')}`] = { sources: [], globs: [g], bytes: 0, tokens: 0, sha256: '' };
      });
      for (const path of paths) {
        // A glob compileGlob refuses (too many wildcards to backtrack over safely) matches nothing.
        const want = Object.entries(attachments).filter(([, a]) => compileGlob(a.globs[0] as string).ok && picomatch(a.globs, GLOB_OPTIONS)(path)).map(([id]) => id);
        expect({ path, ids: attachmentsMatching(attachments, path).map(([id]) => id) }).toEqual({ path, ids: want });
      }
    }), { numRuns: 500 });
  });
});
