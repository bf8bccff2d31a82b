/**
 * An attached rule's `matches` is the number of distinct paths its globs
 * match together, counted without a Set of every match (resolve.ts unionSize):
 * it must equal matching every path against every glob.
 */
import fc from 'fast-check';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { GLOB_OPTIONS } from '../../src/resolve/glob-compile.js';
import { resolveTree } from '../conflicts/tree.js';

const PATHS = ['src/a.ts', 'src/b.tsx', 'src/api/x.ts', 'docs/a.md', 'docs/m1/README.md', 'apps/a1/x.ts', 'apps/a2/y.ts', 'README.md',
  'packages/p1/src/a.ts', 'packages/p2/m1/b.md'];
const GLOBS = ['src/**', 'src/*.ts', '**/*.ts', '**/*.md', 'apps/**', 'apps/a1/**', '**/m1/*.md', 'packages/p1/**/*.ts', 'legacy/**',
  '**/README.md', 'docs/**', '*.md'];

describe('attachment match counts', () => {
  it('count each path once, however many of the rule\'s globs match it', () => {
    fc.assert(fc.property(fc.subarray(PATHS), fc.uniqueArray(fc.constantFrom(...GLOBS), { minLength: 1, maxLength: 4 }), (paths, globs) => {
      const tree = { '.claude/rules/r.md': `---\npaths:\n${globs.map((g) => `  - "${g}"`).join('\n')}\n---\n\n- Rule.\n` };
      // resolveTree adds a source file beside each instruction file's directory (src/index.ts here).
      const all = [...new Set([...paths, '.claude/rules/r.md', 'src/index.ts'])];
      const want = all.filter((p) => globs.some((g) => picomatch(g, GLOB_OPTIONS)(p))).length;
      const [attachment] = resolveTree(tree, paths).attachments;
      expect({ globs, paths, matches: attachment?.matches ?? 0 }).toEqual({ globs, paths, matches: want });
    }), { numRuns: 300 });
  });
});
