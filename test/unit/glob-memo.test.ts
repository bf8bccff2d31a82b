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
import { emptyGlobMemo, GlobMatches, type GlobMemo } from '../../src/resolve/glob-memo.js';
import { listingDigest } from '../../src/util/hash.js';
import { decodeGlobMemo, encodeGlobMemo } from '../../src/cache/glob-store.js';
import { sourceFiles, type Tree } from '../conflicts/tree.js';

const TREE: Tree = {
  'AGENTS.md': '# Root\n\nUse pnpm.\n',
  '.claude/rules/ts.md': '---\npaths:\n  - "src/**/*.ts"\n  - "lib/*.ts"\n---\nUse strict TypeScript.\n',
  '.claude/rules/api.md': '---\npaths:\n  - "src/api/**"\n  - "nowhere/**"\n---\nValidate input.\n',
  '.cursor/rules/docs.mdc': '---\nglobs: "*.md"\n---\nWrite short sentences.\n',
  '.github/instructions/ts.instructions.md': '---\napplyTo: "**/*.ts,src/[invalid"\n---\nPrefer const.\n',
};
/** TREE with one rule's globs edited. */
const EDITED: Tree = { ...TREE, '.claude/rules/api.md': '---\npaths:\n  - "src/**"\n---\nValidate input.\n' };
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
    const first = attach(PATHS, emptyGlobMemo());
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
    expect(memo.together?.groups).toEqual(plain.resolution.together);
    // Recalled, not matched again: a memo that says otherwise is believed (the cache vouches for it) …
    const told = attach(PATHS, { ...memo, together: null, matches: new Map([...memo.matches, ['src/api/**', [PATHS.indexOf('README.md')]]]) });
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
    const memo = attach(PATHS, emptyGlobMemo()).memo as GlobMemo;
    // Every glob's matches wrong too: one used would show.
    const wrong = new Map([...memo.matches].map(([g]) => [g, [PATHS.indexOf('README.md')]]));
    // And its co-attached sets (step 4) go with it.
    const forged = { ...(memo.together as NonNullable<GlobMemo['together']>), groups: [{ attachments: [0, 1], dirs: ['forged'], paths: 1 }] };
    const spoiled = spoil({ ...memo, matches: wrong, together: forged });
    const r = attach(PATHS, spoiled);
    expect(r.resolution).toEqual(plain.resolution);
    expect(r.memo).toEqual(memo);
  });

  it('remember which rules load together, for the same globs of the same listing only', () => {
    const plain = attach(PATHS, undefined);
    expect(plain.resolution.together.length).toBeGreaterThan(0);
    const memo = attach(PATHS, emptyGlobMemo()).memo as GlobMemo;
    const together = memo.together as NonNullable<GlobMemo['together']>;
    // A set the memo names is believed for the same globs …
    const forged = [{ attachments: [0, 1], dirs: ['forged'], paths: 1 }];
    expect(attach(PATHS, { ...memo, together: { ...together, groups: forged } }).resolution.together).toEqual(forged);
    // … and not for other globs (a rule's globs edited), another listing, or attachments that do not exist.
    const otherGlobs = attachRules(planOf(EDITED, PATHS), PATHS);
    const withOther = new GlobMatches(PATHS, { ...memo, together: { ...together, groups: forged } });
    expect(attachRules(planOf(EDITED, PATHS), PATHS, withOther).value.together)
      .toEqual(otherGlobs.value.together);
    const moved = [...PATHS, 'src/api/new.ts'].sort();
    expect(attachRules(planOf(TREE, moved), moved, new GlobMatches(moved, { ...memo, together: { ...together, groups: forged } })).value.together)
      .toEqual(attachRules(planOf(TREE, moved), moved).value.together);
    for (const attachments of [[0, 99], [-1, 0], [1, 0], [0]]) {
      const groups = [{ attachments, dirs: [''], paths: 1 }];
      expect(attach(PATHS, { ...memo, together: { ...together, groups } }).resolution.together).toEqual(plain.resolution.together);
    }
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
    together: fc.option(fc.record({
      key: fc.stringMatching(/^[0-9a-f]{64}$/),
      groups: fc.array(fc.record({
        attachments: fc.uniqueArray(fc.nat({ max: 5000 }), { minLength: 2, maxLength: 5 }).map((a) => a.sort((x, y) => x - y)),
        dirs: fc.array(fc.string(), { maxLength: 4 }),
        paths: fc.integer({ min: 1, max: 100_000 }),
      }), { maxLength: 5 }),
    }), { nil: null }),
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
    ['a listing that is not a sha256', '{"listing":"abc","globs":[],"together":null}'],
    ['no together field', `{"listing":"${'a'.repeat(64)}","globs":[]}`],
    ['a set of one attachment', `{"listing":"${'a'.repeat(64)}","globs":[],"together":{"key":"${'b'.repeat(64)}","groups":[[[1],["d"],1]]}}`],
    ['a set out of order', `{"listing":"${'a'.repeat(64)}","globs":[],"together":{"key":"${'b'.repeat(64)}","groups":[[[2,1],["d"],1]]}}`],
    ['a set loading on no path', `{"listing":"${'a'.repeat(64)}","globs":[],"together":{"key":"${'b'.repeat(64)}","groups":[[[1,2],["d"],0]]}}`],
    ['a directory that is not a string', `{"listing":"${'a'.repeat(64)}","globs":[],"together":{"key":"${'b'.repeat(64)}","groups":[[[1,2],[3],1]]}}`],
    ['an extra field', `{"listing":"${'a'.repeat(64)}","globs":[],"together":null,"more":1}`],
    ['a glob twice', `{"listing":"${'a'.repeat(64)}","globs":[["a",[1]],["a",[2]]],"together":null}`],
    ['a gap of 0 (a repeated index)', `{"listing":"${'a'.repeat(64)}","globs":[["a",[1,0]]],"together":null}`],
    ['a negative first index', `{"listing":"${'a'.repeat(64)}","globs":[["a",[-1]]],"together":null}`],
    ['a fraction', `{"listing":"${'a'.repeat(64)}","globs":[["a",[1.5]]],"together":null}`],
    ['an index past the safe integers', `{"listing":"${'a'.repeat(64)}","globs":[["a",[9007199254740991,1]]],"together":null}`],
    ['an entry of three', `{"listing":"${'a'.repeat(64)}","globs":[["a",[1],2]],"together":null}`],
  ])('refuses %s', (_what, text) => {
    expect(decodeGlobMemo(Buffer.from(text))).toBeNull();
  });
});
