/**
 * Duplicated text grouped per statement: one event listing every copy, the
 * tokens the extra copies cost, the copy to keep (the one that loads on the
 * most paths), near-duplicates, copies between agents' files (info), stale
 * overrides of pairwise duplicate events, and id stability (fast-check).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { detectConflicts, type ConflictEvent } from '../../src/conflicts/detect.js';
import { eventId } from '../../src/conflicts/events.js';
import { hasErrors } from '../../src/diagnostics/diagnostic.js';
import { normaliseStatement } from '../../src/conflicts/facts.js';
import { resolve } from '../../src/resolve/resolve.js';
import { parseDoc } from '../../src/parse/parse-doc.js';
import { encodeLength } from '../../src/validate/token-count.js';
import type { Policy } from '../../src/config/policy.js';
import type { ParsedDoc } from '../../src/types.js';
import { POLICY, resolveTree, sourceFiles, type Tree } from './tree.js';

const LINE = 'Keep pull requests under 400 changed lines and link the ticket in the description.';
const detect = (tree: Tree, paths: string[] = [], policy: Policy = POLICY) => detectConflicts(resolveTree(tree, paths), policy, '2026-01-01');
const texts = (tree: Tree, paths: string[] = []) => detect(tree, paths).value.filter((e) => e.topic === 'duplicate-text');
const summary = (e: ConflictEvent) => ({ kind: e.kind, severity: e.severity, sides: e.sides.map((s) => `${s.source}:${s.line}`), adopted: e.adopted });

describe('duplicates, one event per statement', () => {
  it('three copies of one paragraph are one event listing every copy and the tokens the extra copies cost', () => {
    const tree: Tree = {
      'AGENTS.md': `# Guide\n\n- ${LINE}\n`,
      'packages/a/AGENTS.md': `# A\n\nNotes.\n\n- ${LINE}\n`,
      'packages/b/AGENTS.md': `# B\n\n- ${LINE}\n`,
    };
    const found = texts(tree);
    expect(found.map(summary)).toEqual([
      { kind: 'duplicate', severity: 'warning', sides: ['AGENTS.md:3', 'packages/a/AGENTS.md:5', 'packages/b/AGENTS.md:3'], adopted: 'AGENTS.md' },
    ]);
    const e = found[0] as ConflictEvent;
    expect(e.variants).toHaveLength(2);
    // Two copies at most load in one variant: one extra copy.
    expect(e.wasted_tokens).toBe(encodeLength('o200k_base', LINE));
    const d = detect(tree).diagnostics.filter((x) => x.code === 'RC3104');
    expect(d.map((x) => [x.file, x.related?.map((r) => r.file)])).toEqual([['packages/a/AGENTS.md', ['AGENTS.md', 'packages/b/AGENTS.md']]]);
    expect(d[0]?.message).toContain(`the extra copies cost ${e.wasted_tokens} tokens`);
  });

  it('two statements shared by the same two files are two events, one per statement', () => {
    const other = 'Write every commit message in the imperative mood and under 72 characters.';
    const tree: Tree = { 'AGENTS.md': `# Guide\n\n- ${LINE}\n- ${other}\n`, 'packages/a/AGENTS.md': `# A\n\n- ${other}\n- ${LINE}\n` };
    expect(texts(tree).map((e) => e.sides.map((s) => s.value.slice(0, 10)))).toHaveLength(2);
  });

  it('copies in sibling directories that never load together are not duplicates', () => {
    expect(texts({ 'packages/a/AGENTS.md': `# A\n\n- ${LINE}\n`, 'packages/b/AGENTS.md': `# B\n\n- ${LINE}\n` })).toEqual([]);
  });

  it('an attachment that repeats the root guide is a duplicate where it can attach', () => {
    const tree: Tree = {
      'AGENTS.md': `# Guide\n\n- ${LINE}\n`,
      '.claude/rules/api.md': `---\npaths:\n  - "packages/api/**"\n---\n\n# API\n\n- ${LINE}\n`,
      'packages/web/AGENTS.md': '# Web\n\n- Other things.\n',
    };
    const found = texts(tree, ['packages/api/x.ts', 'packages/web/y.ts']);
    expect(found.map(summary)).toEqual([{ kind: 'duplicate', severity: 'warning', sides: ['.claude/rules/api.md:8', 'AGENTS.md:3'], adopted: 'AGENTS.md' }]);
  });
});

describe('near-duplicates', () => {
  const variants = [
    LINE.toUpperCase(),
    'Keep **pull requests** under 400 changed lines, and link the _ticket_ in the description!',
    'Keep `pull requests` under 400   changed lines and link the ticket in the description',
    'Keep pull-requests under 400 changed lines and link the ticket in the description (see CONTRIBUTING.md).',
    'Keep pull requests under 400 changed lines — and link the ticket in the description.',
  ];
  it.each(variants)('"%s" is the same statement', (text) => {
    expect(normaliseStatement(text)).toBe(normaliseStatement(LINE));
    const found = texts({ 'AGENTS.md': `# Guide\n\n- ${LINE}\n`, 'packages/a/AGENTS.md': `# A\n\n- ${text}\n` });
    expect(found.map(summary)).toEqual([{ kind: 'duplicate', severity: 'warning', sides: ['AGENTS.md:3', 'packages/a/AGENTS.md:3'], adopted: 'AGENTS.md' }]);
  });

  it('normalises as the chain of replaces it stands for, on any text', () => {
    // The definition, written as regexes: normaliseStatement is one pass for speed, not a new meaning.
    const reference = (text: string): string => {
      const s = text.toLowerCase().replace(/[*_`~]+/g, '').replace(/[^\p{L}\p{M}\p{N}()]+/gu, ' ').trim();
      let kept = s;
      if (s.endsWith(')')) {
        let depth = 0;
        for (let i = s.length - 1; i >= 0; i--) {
          if (s[i] === ')') depth++;
          else if (s[i] === '(' && --depth === 0) { kept = i === 0 ? s : s.slice(0, i).trimEnd(); break; }
        }
      }
      return kept.replace(/[()]/g, ' ').replace(/ +/g, ' ').trim();
    };
    const piece = fc.constantFrom('a', 'Ab', 'é', 'e\u0301', '٣', '𝔘', '\ud800', '\udc00', '(', ')', ' ', '-', '*', '`', '~', '_', '.', '\t', '中');
    const asReference = (text: string): void => {
      expect(normaliseStatement(text)).toBe(reference(text));
    };
    fc.assert(fc.property(fc.array(piece, { maxLength: 40 }).map((a) => a.join('')), asReference), { numRuns: 3000 });
    // Long enough for the buffer it writes the words into to be made afresh (over 4,096 code units)
    // and turned into a string in several pieces (over 8,192), a surrogate pair maybe cut between two.
    fc.assert(fc.property(fc.array(piece, { minLength: 6000, maxLength: 20000 }).map((a) => a.join('')), asReference), { numRuns: 40, endOnFailure: true });
    expect(normaliseStatement('Run **all** tests before you push (CI checks it).')).toBe('run all tests before you push');
  });

  it.each([
    'Keep pull requests under 200 changed lines and link the ticket in the description.',
    'Keep pull requests under 400 changed lines and never link the ticket in the description.',
    'Keep pull requests under 400 changed lines and link the issue in the description.',
  ])('"%s" is a different statement', (text) => {
    expect(texts({ 'AGENTS.md': `# Guide\n\n- ${LINE}\n`, 'packages/a/AGENTS.md': `# A\n\n- ${text}\n` })).toEqual([]);
  });
});

describe('a statement reworded only by fillers', () => {
  const pair = (a: string, b: string) => texts({ 'AGENTS.md': `# Guide\n\n- ${a}\n`, 'packages/a/AGENTS.md': `# A\n\n- ${b}\n` }).map(summary);
  it('"ALWAYS" and "any" do not make it another statement', () => {
    expect(pair('Run `npm run format-fix` before committing any changes to ensure proper code formatting',
      '**ALWAYS** run `npm run format-fix` before committing changes to ensure proper code formatting'))
      .toEqual([{ kind: 'duplicate', severity: 'warning', sides: ['AGENTS.md:3', 'packages/a/AGENTS.md:3'], adopted: 'AGENTS.md' }]);
  });
  it.each([
    'Never run `npm run format-fix` before committing changes to ensure proper code formatting',
    'Run `npm run format-fix` before committing all changes to ensure proper code formatting',
  ])('"%s" is a different statement', (text) => {
    expect(pair('Always run `npm run format-fix` before committing changes to ensure proper code formatting', text)).toEqual([]);
  });
  it.each([
    ['Integration tests must be able to run in any order.', 'Integration tests must be able to run in order.'],
    ['You do not always need to run the full integration suite locally.', 'You do not need to run the full integration suite locally.'],
  ])('a filler that carries meaning stays: "%s"', (a, b) => {
    expect(pair(a, b)).toEqual([]);
  });
});

describe('a statement that ends in a remark after a dash', () => {
  const RULE = 'Never commit directly to `main`';
  const pair = (a: string, b: string) => texts({ 'AGENTS.md': `# Guide\n\n- ${a}\n`, 'packages/a/AGENTS.md': `# A\n\n- ${b}\n` }).map(summary);
  const one = [{ kind: 'duplicate', severity: 'warning', sides: ['AGENTS.md:3', 'packages/a/AGENTS.md:3'], adopted: 'AGENTS.md' }];

  it.each([
    ['an em dash and a reason', `**${RULE}** — a pre-commit hook enforces this`],
    ['a spaced hyphen', `${RULE} - CI rejects such pushes`],
    ['an en dash', `${RULE} – ask for a review instead.`],
  ])('is also its head (%s): a duplicate of the bare rule', (_name, text) => {
    expect(pair(text, RULE)).toEqual(one);
  });

  it('is reported once when both copies carry the same remark', () => {
    expect(pair(`${RULE} — a hook enforces this`, `${RULE} — a hook enforces this`)).toEqual(one);
  });

  it('is also its head when the remark holds code, if the head is an instruction itself', () => {
    expect(pair(`${RULE} - extend \`ReleaseOptions\` instead`, RULE)).toEqual(one);
  });

  const FORMATTER = 'Format every change in this repository with the formatter';
  it.each([
    ['the remark holds code and the head instructs nothing on its own', `${FORMATTER} — \`pnpm format\``, FORMATTER],
    ['a table row: the dash separates a cell\'s description', `| Git | ${RULE} — import from \`@acme/git\` |`, RULE],
    ['the head is too short to be a rule on its own', 'Use pnpm — never npm or yarn in this repository', 'Use pnpm'],
  ])('keeps its remark when %s', (_name, text, bare) => {
    expect(pair(text, bare)).toEqual([]);
  });

  const REVIEW = 'Reviewers must see a diff in the OpenAPI file alongside code changes';
  it('is also its remark when the remark is an instruction', () => {
    expect(pair(`**Forgetting to update the OpenAPI spec** when adding endpoints — ${REVIEW}.`, `**${REVIEW}**`)).toEqual(one);
  });

  it('is not its remark when the remark only says why', () => {
    const WHY = 'a pre-commit hook in this repository enforces this';
    expect(pair(`Keep the changelog current — ${WHY}`, `Update the generated docs — ${WHY}`)).toEqual([]);
  });
});

describe('what a statement is indexed by besides its whole text', () => {
  const pair = (a: string, b: string) => texts({ 'AGENTS.md': `# Guide\n\n${a}\n`, 'packages/a/AGENTS.md': `# A\n\n${b}\n` }).map(summary);
  const one = [{ kind: 'duplicate', severity: 'warning', sides: ['AGENTS.md:3', 'packages/a/AGENTS.md:3'], adopted: 'AGENTS.md' }];

  it.each([
    ['a path listed in two "see also" lists', '- `.github/workflows/linux-ci.yml` - Linux CI workflow', '- `.github/workflows/linux-ci.yml`'],
    ['a link', '- [docs/module-federation.md](../docs/module-federation.md) — config schema', '- [docs/module-federation.md](../docs/module-federation.md) — config properties'],
    ['a table row whose cells after its label are paths', '| Host MF config | `frontend/config/moduleFederation.js` |', '| Host MF config | `frontend/config/moduleFederation.js` |'],
  ])('a reference is not an instruction: %s', (_name, a, b) => {
    expect(pair(a, b)).toEqual([]);
  });

  it('a table row with words beside its label is a statement, the same as the list item it copies', () => {
    expect(pair('- Utility functions, custom hooks, API utilities, data transformations, business logic: Required',
      '| Utility functions, custom hooks, API utilities, data transformations, business logic | ✅ Required |')).toEqual(one);
  });

  it('the lead sentence of a paragraph, when it instructs', () => {
    expect(pair('New features must be **opt-in by default**. Options control whether a feature is enabled.',
      '- New features must be **opt-in by default** - extend `Options` with getters and setters')).toEqual(one);
  });

  it.each([
    ['a later sentence leans on the one before it', '- **Sync paths must stay in lockstep**. Changes to one must be mirrored in the other.',
      '- Engines run in two modes. Changes to one must be mirrored in the other.'],
    ['a lead sentence that does not instruct', 'Options control whether a feature is enabled and how. Add getters.', '- Options control whether a feature is enabled and how'],
  ])('not: %s', (_name, a, b) => {
    expect(pair(a, b)).toEqual([]);
  });
});

describe('the copy to keep', () => {
  it('is the copy that loads on the most paths, not the one with the lowest specificity number', () => {
    // A `**/*.md` rule counts as a root-level glob (specificity 0.5) but loads on two paths;
    // packages/api/AGENTS.md (depth 2) loads on every path of the package.
    const api = Array.from({ length: 20 }, (_, i) => `packages/api/src/f${i}.ts`);
    const tree: Tree = {
      '.claude/rules/docs.md': `---\npaths:\n  - "**/*.md"\n---\n\n# Docs\n\n- ${LINE}\n`,
      'packages/api/AGENTS.md': `# API\n\n- ${LINE}\n`,
      'packages/api/README.md': 'x',
    };
    expect(texts(tree, api).map((e) => e.adopted)).toEqual(['packages/api/AGENTS.md']);
  });

  it('on equal paths, the broader scope: the managed policy over the root', () => {
    const tree: Tree = { 'managed:defaults.md': `---\nid: org\n---\n\n- ${LINE}\n`, 'AGENTS.md': `# Guide\n\n- ${LINE}\n` };
    expect(texts(tree).map((e) => e.adopted)).toEqual(['managed:defaults.md']);
  });
});

describe('copies between agents\' files', () => {
  it('AGENTS.md, CLAUDE.md and an always-on Cursor rule at the root: one info event (RC3105), nothing to keep', () => {
    const tree: Tree = {
      'AGENTS.md': `# Guide\n\n- ${LINE}\n`,
      'CLAUDE.md': `# Claude\n\n- ${LINE}\n`,
      '.cursor/rules/prs.mdc': `---\ndescription: prs\nalwaysApply: true\n---\n\n- ${LINE}\n`,
    };
    const found = texts(tree);
    expect(found.map(summary)).toEqual([{ kind: 'copy', severity: 'info', sides: ['.cursor/rules/prs.mdc:6', 'AGENTS.md:3', 'CLAUDE.md:3'], adopted: null }]);
    expect(found[0]?.wasted_tokens).toBe(2 * encodeLength('o200k_base', LINE));
    expect(detect(tree).diagnostics.filter((d) => d.code.startsWith('RC31')).map((d) => [d.code, d.severity])).toEqual([['RC3105', 'info']]);
  });

  it('CLAUDE.md and a Claude rule are read by one agent: a duplicate, even beside AGENTS.md', () => {
    const tree: Tree = { 'AGENTS.md': `# Guide\n\n- ${LINE}\n`, 'CLAUDE.md': `# Claude\n\n- ${LINE}\n`, '.claude/rules/prs.md': `# PRs\n\n- ${LINE}\n` };
    expect(texts(tree).map((e) => [e.kind, e.severity, e.sides.length])).toEqual([['duplicate', 'warning', 3]]);
  });

  it('the policy sets the severity of copies', () => {
    const tree: Tree = { 'AGENTS.md': `# Guide\n\n- ${LINE}\n`, 'GEMINI.md': `# Gemini\n\n- ${LINE}\n` };
    const found = detect(tree, [], { ...POLICY, conflicts: { severity: { copy: 'warning' } } }).value;
    expect(found.map((e) => [e.kind, e.severity])).toEqual([['copy', 'warning']]);
  });

  it('a symlink and its target are one file: no event', () => {
    const files = sourceFiles({ 'AGENTS.md': `# Guide\n\n- ${LINE}\n`, 'packages/a/AGENTS.md': `# Guide\n\n- ${LINE}\n` });
    (files[1] as (typeof files)[number]).linkTarget = 'AGENTS.md';
    const docs = new Map<string, ParsedDoc>(files.map((f) => [f.id, parseDoc(f).value]));
    const res = resolve({ files, docs, paths: ['src/x.ts', 'packages/a/src/x.ts'], imports: { roots: { repo: '/repo' }, maxDepth: 4 } }).value;
    expect(detectConflicts(res, POLICY, '2026-01-01').value).toEqual([]);
  });
});

describe('overrides of duplicate events', () => {
  const tree: Tree = { 'AGENTS.md': `# Guide\n\n- ${LINE}\n`, 'packages/a/AGENTS.md': `# A\n\n- ${LINE}\n` };
  const entry = { owner: 'docs', reason: 'shared boilerplate', expires: '2026-06-30' };

  it('accept the grouped event by id or by topic', () => {
    const id = (texts(tree)[0] as ConflictEvent).id;
    for (const o of [{ event: id, ...entry }, { topic: 'duplicate-text', ...entry }]) {
      const r = detect(tree, [], { ...POLICY, conflicts: { overrides: [o] } });
      // Accepted is a suppression: the severity stays, the diagnostic carries the acceptance and fails nothing.
      expect(r.value.map((e) => [e.id, e.severity, e.accepted?.owner])).toEqual([[id, 'warning', 'docs']]);
      expect(r.diagnostics.filter((d) => d.code === 'RC3104').map((d) => [d.severity, d.suppressed?.owner])).toEqual([['warning', 'docs']]);
      expect(hasErrors(r.diagnostics.map((d) => ({ ...d, severity: 'error' as const })).filter((d) => d.code === 'RC3104'))).toBe(false);
    }
  });

  it('an override naming a pairwise duplicate id matches nothing, and its warning says where duplicates went', () => {
    const e = texts(tree)[0] as ConflictEvent;
    // The id the pairwise scheme gave the same two copies: topic, kind and (source, rule, value) of each side.
    const pairwise = eventId('duplicate-text', 'duplicate', e.sides);
    expect(pairwise).not.toBe(e.id);
    const r = detect(tree, [], { ...POLICY, conflicts: { overrides: [{ event: pairwise, ...entry }] } });
    expect(r.value.filter((x) => x.accepted)).toEqual([]);
    const stale = r.diagnostics.filter((d) => d.code === 'RC3302');
    expect(stale).toHaveLength(1);
    expect(stale[0]?.message).toContain(pairwise);
    expect(stale[0]?.message).toContain('one event per duplicated statement');
    expect(stale[0]?.message).toContain('topic: duplicate-text');
  });
});

/** Unrelated text: neutral words that name no tool, version, path or directive, and never 40 characters of the shared line. */
const WORDS = ['lorem', 'ipsum', 'dolor', 'amet', 'harbour', 'lantern', 'meadow', 'pebble', 'quartz', 'willow'];
const filler = fc.array(fc.constantFrom(...WORDS), { minLength: 2, maxLength: 9 }).map((w) => `- ${w.join(' ')}.`);
const DIRS = ['', 'packages/a/', 'packages/a/src/', 'packages/b/', 'tools/'];

describe('duplicate event ids (property)', () => {
  it('do not change when unrelated text is added to any copy', () => {
    fc.assert(fc.property(
      fc.uniqueArray(fc.constantFrom(...DIRS), { minLength: 2, maxLength: 5 }), fc.array(fc.tuple(fc.nat(), fc.nat(), filler), { maxLength: 6 }),
      (dirs, inserts) => {
        const tree: Tree = Object.fromEntries(dirs.map((d, i) => [`${d}AGENTS.md`, `# Guide ${i}\n\n- intro ${WORDS[i]} text.\n\n- ${LINE}\n`]));
        const before = texts(tree);
        const edited: Tree = { ...tree };
        for (const [which, where, text] of inserts) {
          const key = `${dirs[which % dirs.length]}AGENTS.md`;
          const parts = (edited[key] as string).trimEnd().split('\n\n');
          parts.splice(1 + (where % parts.length), 0, text);
          edited[key] = `${parts.join('\n\n')}\n`;
        }
        expect(texts(edited).map((e) => e.id)).toEqual(before.map((e) => e.id));
        expect(before.length).toBeLessThanOrEqual(1);
      }), { numRuns: 150 });
  });

  it('change when a copy is added or its statement changes', () => {
    const two: Tree = { 'AGENTS.md': `# Guide\n\n- ${LINE}\n`, 'packages/a/AGENTS.md': `# A\n\n- ${LINE}\n` };
    const [a] = texts(two).map((e) => e.id);
    const [b] = texts({ ...two, 'packages/a/src/AGENTS.md': `# Src\n\n- ${LINE}\n` }).map((e) => e.id);
    const changed = LINE.replace('400', '500');
    const [c] = texts({ 'AGENTS.md': `# Guide\n\n- ${changed}\n`, 'packages/a/AGENTS.md': `# A\n\n- ${changed}\n` }).map((e) => e.id);
    expect(new Set([a, b, c]).size).toBe(3);
  });
});
