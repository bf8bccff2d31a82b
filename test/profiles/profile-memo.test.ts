/**
 * The profile memo (src/profiles/profile-memo.ts): an evaluation that is given
 * an earlier one's memo finds exactly what an evaluation from scratch finds,
 * reuses the outcomes whose reads are unchanged, and runs again the ones whose
 * reads changed — also when the read happened in a value shared between
 * session classes (Claude Code's rules, parsed once per view).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDoc } from '../../src/parse/parse-doc.js';
import { resolve } from '../../src/resolve/resolve.js';
import { profileJob } from '../../src/profiles/profile-job.js';
import { evaluateProfileJob } from '../../src/profiles/build-view.js';
import { emptyProfileMemo, memoBasis, type ProfileMemo } from '../../src/profiles/profile-memo.js';
import { evaluateRemembering } from '../../src/profiles/evaluate.js';
import type { RepoView } from '../../src/profiles/types.js';
import { decodeProfileMemo, encodeProfileMemo } from '../../src/cache/profile-store.js';
import type { Policy } from '../../src/config/policy.js';
import { POLICY, sourceFiles, type Tree } from '../conflicts/tree.js';
import { startLedger, takeLedger } from '../../src/validate/token-count.js';

const PROFILES_POLICY = { ...POLICY, profiles: { enabled: ['codex', 'claude-code', 'gemini-cli', 'copilot-cli', 'cursor', 'qwen-code'] } } as Policy;

function evaluate(tree: Tree, known: ProfileMemo | null) {
  const files = sourceFiles(tree);
  const docs = new Map(files.map((f) => [f.id, parseDoc(f).value]));
  const paths = Object.keys(tree).sort();
  const roots = { repo: '/repo' };
  const res = resolve({ files, docs, paths, imports: { roots, maxDepth: 4 } }).value;
  const job = profileJob(files, paths, res, PROFILES_POLICY, { roots, maxDepth: 4, docs, places: new Map(files.map((f) => [f.id, f])) }, known);
  return evaluateProfileJob(job);
}

const BASE: Tree = {
  'AGENTS.md': '# Root\n\nUse pnpm.\n',
  'CLAUDE.md': '# Claude\n\n@AGENTS.md\n\nRead `packages/api/AGENTS.md` before changing the API.\n',
  '.claude/rules/api.md': '---\npaths: ["packages/api/**"]\n---\n# API rule\n\nKeep handlers small.\n',
  '.claude/rules/style.md': '# Style\n\nTwo spaces.\n',
  'packages/api/AGENTS.md': '# API\n\nNever log bodies.\n',
  'packages/api/src/index.ts': '',
  'packages/web/GEMINI.md': '# Web\n\nUse vite.\n',
  'packages/web/src/app.ts': '',
  '.github/copilot-instructions.md': '# Copilot\n\nBe brief.\n',
};

/** The memo of `tree` with every remembered fit's byte count set to 999,999: an outcome taken from it shows. */
function marked(tree: Tree): ProfileMemo {
  const memo = evaluate(tree, emptyProfileMemo()).value.memo as ProfileMemo;
  return { ...memo, entries: memo.entries.map(([k, e]) => [k, { ...e, fit: { ...e.fit, bytes: 999_999 } }]) };
}

const marks = (r: ReturnType<typeof evaluate>): number => Object.values(r.value.fits).flatMap((row) => Object.values(row)).filter((f) => f.bytes === 999_999).length;
const fitsOf = (r: ReturnType<typeof evaluate>) => Object.values(r.value.fits).flatMap((row) => Object.values(row));

describe('the profile memo', () => {
  it('is returned only when asked for, and a repeat evaluation takes every outcome from it', () => {
    expect(evaluate(BASE, null).value.memo).toBeNull();
    const again = evaluate(BASE, marked(BASE));
    expect(marks(again)).toBe(fitsOf(again).length);
  });

  it('runs again exactly the outcomes whose reads changed', () => {
    // Only what packages/web reads changes: the root's and packages/api's outcomes are recalled.
    const r = evaluate({ ...BASE, 'packages/web/GEMINI.md': '# Web\n\nUse webpack.\n' }, marked(BASE));
    const recalled = marks(r);
    expect(recalled).toBeGreaterThan(0);
    expect(recalled).toBeLessThan(fitsOf(r).length);
    for (const [variant, row] of Object.entries(r.value.fits)) {
      for (const [name, fit] of Object.entries(row)) if (fit.bytes === 999_999) expect(`${variant} ${name}`).not.toMatch(/web/);
    }
  });

  it('runs again every class that used a shared value whose file changed, whichever class computed it', () => {
    // Claude Code lists the rules once per view (the first class to ask parses them); every Claude
    // class depends on them. The rule stays lazy: only its bytes change.
    const r = evaluate({ ...BASE, '.claude/rules/api.md': '---\npaths: ["packages/api/**"]\n---\n# API rule\n\nKeep handlers tiny.\n' }, marked(BASE));
    const rows = Object.values(r.value.fits);
    expect(rows.length).toBe(3);
    for (const row of rows) expect(row['claude-code']?.bytes).not.toBe(999_999);
    // Codex never reads .claude/rules: its outcomes are recalled.
    for (const row of rows) expect(row.codex?.bytes).toBe(999_999);
  });

  it('keeps the token counts of the runs it reuses in the build\'s ledger', () => {
    const long = (s: string): string => `# ${s}\n\n${`${s} says something long enough to be counted by its digest. `.repeat(3)}\n`;
    const tree: Tree = { ...BASE, 'AGENTS.md': long('Root'), 'packages/api/AGENTS.md': long('API'), 'CLAUDE.md': long('Claude') };
    startLedger(new Map());
    const memo = evaluate(tree, emptyProfileMemo()).value.memo as ProfileMemo;
    const cold = takeLedger().get('o200k_base') ?? new Map();
    expect(cold.size).toBeGreaterThan(0);
    expect(memo.counts.length).toBeGreaterThan(0);
    // Every outcome reused: nothing is counted, yet the ledger holds what the runs counted before.
    const known = marked(tree);
    startLedger(new Map([['o200k_base', cold]]));
    const again = evaluate(tree, known);
    const warm = takeLedger().get('o200k_base') ?? new Map();
    expect(marks(again)).toBe(fitsOf(again).length);
    expect(new Map([...warm].sort())).toEqual(new Map([...cold].sort()));
  });

  it('is set aside whole when the listing changes', () => {
    const r = evaluate({ ...BASE, 'packages/web/src/other.ts': '' }, marked(BASE));
    expect(marks(r)).toBe(0);
  });

  it('notes what a run reads from the home directory, and remembers nothing of a view that lists directories', () => {
    const enc = new TextEncoder();
    const viewWith = (home: string, listDir = false): RepoView => ({
      paths: ['AGENTS.md', 'src/a.ts'], rootDisplay: '/repo', homeDisplay: '/home', homePaths: [],
      read: (p) => (p === 'AGENTS.md' ? enc.encode('# Root\n\nUse pnpm.\n') : undefined),
      readHome: (rel) => (rel === '.codex/AGENTS.md' ? enc.encode(home) : undefined),
      ...(listDir ? { listDir: () => [] } : {}),
    });
    const run = (view: RepoView, known: ProfileMemo) => evaluateRemembering([view, [{ id: 'v', dirs: [''], pathCount: 2 }], ['codex'], {},
      () => ['AGENTS.md']], { known, basis: memoBasis(view.paths, []) });
    const first = run(viewWith('# Mine\n\nShort.\n'), emptyProfileMemo()).value;
    const mark = (m: ProfileMemo): ProfileMemo => ({ ...m, entries: m.entries.map(([k, e]) => [k, { ...e, fit: { ...e.fit, bytes: 999_999 } }]) });
    expect(run(viewWith('# Mine\n\nShort.\n'), mark(first.memo as ProfileMemo)).value.fits.v?.codex?.bytes).toBe(999_999);
    const changed = run(viewWith('# Mine\n\nA longer personal file.\n'), mark(first.memo as ProfileMemo)).value.fits.v?.codex?.bytes;
    expect(changed).toBe(run(viewWith('# Mine\n\nA longer personal file.\n'), emptyProfileMemo()).value.fits.v?.codex?.bytes);
    expect(changed).not.toBe(999_999);
    const listing = run(viewWith('# Mine\n', true), mark(first.memo as ProfileMemo)).value;
    expect(listing.fits.v?.codex?.bytes).not.toBe(999_999);
    expect(listing.memo?.entries).toEqual([]);
  });

  it('survives the cache file round trip, and the store refuses what it does not write', () => {
    const memo = evaluate(BASE, emptyProfileMemo()).value.memo as ProfileMemo;
    expect(memo.entries.length).toBeGreaterThan(0);
    expect(decodeProfileMemo(encodeProfileMemo(memo))).toEqual(memo);
    const body = JSON.parse(encodeProfileMemo(memo).toString('utf8'));
    const refused = [
      { ...body, extra: 1 },
      { ...body, basis: 'x' },
      { ...body, files: [...body.files, body.files[0]] },
      { ...body, groups: [[body.files.length]] },
      { ...body, entries: [[body.entries[0][0], [0], [], [], [1, 1, true, []], [['RC9999', 'a', 1, 'b']]]] },
      { ...body, entries: [[body.entries[0][0], [0], [], [], [-1, 1, true, []], []]] },
      { ...body, entries: [[body.entries[0][0], [0], [], [body.counts.length], [1, 1, true, []], []]] },
      { ...body, counts: ['x'] },
      { ...body, entries: [...body.entries, body.entries[0]] },
    ];
    for (const b of refused) expect(decodeProfileMemo(Buffer.from(JSON.stringify(b)))).toBeNull();
    // The same entry without its defect is read.
    expect(decodeProfileMemo(Buffer.from(JSON.stringify({ ...body, entries: [[body.entries[0][0], [0], [], [], [1, 1, true, []], []]] })))).not.toBeNull();
    expect(decodeProfileMemo(Buffer.from('{"basis":'))).toBeNull();
  });

  it('finds what an evaluation from scratch finds, after any edits', () => {
    const places = ['AGENTS.md', 'CLAUDE.md', 'GEMINI.md', 'packages/api/AGENTS.md', 'packages/api/CLAUDE.md', 'packages/web/GEMINI.md',
      '.claude/rules/api.md', '.claude/rules/style.md', '.github/copilot-instructions.md', '.github/instructions/api.instructions.md',
      '.cursor/rules/web.mdc', 'AGENTS.override.md', 'packages/api/QWEN.md'];
    const texts = [
      '# A\n\nUse pnpm.\n', '# A\n\nUse npm.\n', `# Big\n\n${'Say it at length. '.repeat(2500)}\n`,
      '---\npaths: ["packages/api/**"]\n---\n# Scoped\n\nKeep handlers small.\n', '---\napplyTo: "packages/**"\n---\nName files after exports.\n',
      '# Imports\n\n@AGENTS.md\n@packages/api/AGENTS.md\n', 'Read `packages/api/AGENTS.md` first.\n', '',
    ];
    const fixed: Tree = { 'packages/api/src/index.ts': '', 'packages/web/src/app.ts': '', 'src/main.ts': '' };
    const treeArb = fc.dictionary(fc.constantFrom(...places), fc.constantFrom(...texts), { maxKeys: 8 });
    fc.assert(fc.property(treeArb, fc.array(fc.tuple(fc.constantFrom(...places), fc.option(fc.constantFrom(...texts))), { maxLength: 4 }), (start, edits) => {
      const before: Tree = { ...fixed, ...start };
      const after: Tree = { ...before };
      for (const [place, text] of edits) {
        if (text === null) delete after[place];
        else after[place] = text;
      }
      const memo = evaluate(before, emptyProfileMemo()).value.memo as ProfileMemo;
      const warm = evaluate(after, memo);
      const cold = evaluate(after, null);
      expect(warm.value.fits).toEqual(cold.value.fits);
      expect(warm.diagnostics).toEqual(cold.diagnostics);
      // And the memo it returns serves the next evaluation as well as a fresh one would.
      expect(evaluate(after, warm.value.memo).value.fits).toEqual(cold.value.fits);
    }), { numRuns: 60 });
  });
});
