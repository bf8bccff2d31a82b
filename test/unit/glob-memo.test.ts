/**
 * Remembered glob matches (src/resolve/glob-memo.ts, the cache file `globs`): a
 * build given the memo of an earlier build of the same path listing takes each
 * glob's matches from it and resolves exactly as it would have by matching; a
 * memo of another listing, or whose indices do not fit the listing, is not used
 * at all; the file's encoding round-trips and refuses anything else.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ParsedDoc } from '../../src/types.js';
import { parseDoc } from '../../src/parse/parse-doc.js';
import { attachRules, planResolution, type ResolutionPlan } from '../../src/resolve/resolve.js';
import { GlobMatches, listingDigest, type GlobMemo } from '../../src/resolve/glob-memo.js';
import { decodeGlobMemo, encodeGlobMemo } from '../../src/cache/glob-store.js';
import { sourceFiles, type Tree } from '../conflicts/tree.js';

const TREE: Tree = {
  'AGENTS.md': '# Root\n\nUse pnpm.\n',
  '.claude/rules/ts.md': '---\npaths:\n  - "src/**/*.ts"\n  - "lib/*.ts"\n---\nUse strict TypeScript.\n',
  '.claude/rules/api.md': '---\npaths:\n  - "src/api/**"\n  - "nowhere/**"\n---\nValidate input.\n',
  '.cursor/rules/docs.mdc': '---\nglobs: "*.md"\n---\nWrite short sentences.\n',
  '.github/instructions/ts.instructions.md': '---\napplyTo: "**/*.ts,src/[invalid"\n---\nPrefer const.\n',
};
const PATHS = ['AGENTS.md', 'README.md', 'docs/guide.md', 'lib/a.ts', 'lib/deep/b.ts', 'src/api/handler.ts', 'src/api/x.json', 'src/lib/util.ts', 'src/main.ts'];

function planOf(tree: Tree, paths: readonly string[]): ResolutionPlan {
  const files = sourceFiles(tree);
  const docs = new Map<string, ParsedDoc>(files.map((f) => [f.id, parseDoc(f).value]));
  return planResolution({ files, docs, paths, imports: { roots: { repo: '/repo' }, maxDepth: 4 } }).value;
}

/** attachRules with a memo (or none), and what it recorded. */
function attach(paths: readonly string[], earlier: GlobMemo | null | undefined) {
  const globs = earlier === undefined ? null : new GlobMatches(paths, earlier);
  const r = attachRules(planOf(TREE, paths), paths, globs);
  return { resolution: r.value, diagnostics: r.diagnostics, memo: globs?.memo() ?? null };
}

describe('remembered glob matches', () => {
  it('resolve as matching does, and are taken from the memo when the listing is the same', () => {
    const plain = attach(PATHS, undefined);
    const first = attach(PATHS, { listing: '', matches: new Map() });
    expect(first.resolution).toEqual(plain.resolution);
    expect(first.diagnostics).toEqual(plain.diagnostics);
    const memo = first.memo as GlobMemo;
    expect(memo.listing).toBe(listingDigest(PATHS));
    // Every glob that parsed, dead ones too; the one that cannot be parsed is reported again, not remembered.
    expect([...memo.matches.keys()].sort()).toEqual(['**/*.md', '**/*.ts', 'lib/*.ts', 'nowhere/**', 'src/**/*.ts', 'src/api/**']);
    expect(memo.matches.get('src/api/**')).toEqual([PATHS.indexOf('src/api/handler.ts'), PATHS.indexOf('src/api/x.json')]);
    const second = attach(PATHS, memo);
    expect(second.resolution).toEqual(plain.resolution);
    expect(second.diagnostics).toEqual(plain.diagnostics);
    expect(second.memo).toEqual(memo);
    // Recalled, not matched again: a memo that says otherwise is believed (the cache vouches for it) …
    const told = attach(PATHS, { ...memo, matches: new Map([...memo.matches, ['src/api/**', [PATHS.indexOf('README.md')]]]) });
    expect(plain.resolution.attachments.find((a) => a.globs.includes('src/api/**'))?.matches).toBe(2);
    expect(told.resolution.attachments.find((a) => a.globs.includes('src/api/**'))?.matches).toBe(1);
    expect(told.resolution.together).not.toEqual(plain.resolution.together);
  });

  it.each<[string, (memo: GlobMemo) => GlobMemo]>([
    ['of another listing (a path added)', (m) => ({ ...m, listing: listingDigest([...PATHS, 'src/new.ts'].sort()) })],
    ['with an index past the listing', (m) => ({ ...m, matches: new Map([...m.matches, ['src/api/**', [0, PATHS.length]]]) })],
    ['with indices out of order', (m) => ({ ...m, matches: new Map([...m.matches, ['src/api/**', [6, 5]]]) })],
    ['with a repeated index', (m) => ({ ...m, matches: new Map([...m.matches, ['src/api/**', [5, 5]]]) })],
    ['with a negative index', (m) => ({ ...m, matches: new Map([...m.matches, ['src/api/**', [-1]]]) })],
  ])('a memo %s is not used at all', (_what, spoil) => {
    const plain = attach(PATHS, undefined);
    const memo = attach(PATHS, { listing: '', matches: new Map() }).memo as GlobMemo;
    // Every glob's matches wrong too: one used would show.
    const wrong = new Map([...memo.matches].map(([g]) => [g, [PATHS.indexOf('README.md')]]));
    const spoiled = spoil({ ...memo, matches: wrong });
    const r = attach(PATHS, spoiled);
    expect(r.resolution).toEqual(plain.resolution);
    expect(r.memo).toEqual(memo);
  });

  it('stop remembering past the cap, and still resolve', () => {
    const paths = Array.from({ length: 50 }, (_, i) => `src/m${String(i).padStart(2, '0')}.ts`);
    const globs = new GlobMatches(paths, null, 60);
    const plain = attachRules(planOf(TREE, paths), paths);
    const capped = attachRules(planOf(TREE, paths), paths, globs);
    expect(capped.value).toEqual(plain.value);
    const total = [...globs.memo().matches.values()].reduce((n, m) => n + m.length, 0);
    expect(total).toBeLessThanOrEqual(60);
    expect(globs.memo().matches.size).toBeGreaterThan(0);
  });
});

describe('the cache file `globs`', () => {
  const indices = fc.uniqueArray(fc.nat({ max: 1_000_000 }), { maxLength: 40 }).map((a) => a.sort((x, y) => x - y));
  const memos = fc.record({
    listing: fc.stringMatching(/^[0-9a-f]{64}$/),
    matches: fc.dictionary(fc.string(), indices).map((d) => new Map(Object.entries(d))),
  });

  it('decodes what it encodes, in one byte order whatever the insertion order', () => {
    fc.assert(fc.property(memos, (memo) => {
      const bytes = encodeGlobMemo(memo);
      expect(decodeGlobMemo(bytes)).toEqual(memo);
      expect(encodeGlobMemo({ ...memo, matches: new Map([...memo.matches].reverse()) })).toEqual(bytes);
    }), { numRuns: 200 });
  });

  it.each([
    ['not JSON', '{'],
    ['an array', '[]'],
    ['a listing that is not a sha256', '{"listing":"abc","globs":[]}'],
    ['an extra field', `{"listing":"${'a'.repeat(64)}","globs":[],"more":1}`],
    ['a glob twice', `{"listing":"${'a'.repeat(64)}","globs":[["a",[1]],["a",[2]]]}`],
    ['a gap of 0 (a repeated index)', `{"listing":"${'a'.repeat(64)}","globs":[["a",[1,0]]]}`],
    ['a negative first index', `{"listing":"${'a'.repeat(64)}","globs":[["a",[-1]]]}`],
    ['a fraction', `{"listing":"${'a'.repeat(64)}","globs":[["a",[1.5]]]}`],
    ['an index past the safe integers', `{"listing":"${'a'.repeat(64)}","globs":[["a",[9007199254740991,1]]]}`],
    ['an entry of three', `{"listing":"${'a'.repeat(64)}","globs":[["a",[1],2]]}`],
  ])('refuses %s', (_what, text) => {
    expect(decodeGlobMemo(Buffer.from(text))).toBeNull();
  });
});
