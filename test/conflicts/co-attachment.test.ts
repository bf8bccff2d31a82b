/**
 * Glob-scoped rules that attach to the same files: which ones co-attach
 * (grouped by the real paths they match), the disagreements and copied blocks
 * between them, and agent-requested rules compared with their directory's
 * standing files for copied text.
 */
import { describe, expect, it } from 'vitest';
import { coAttachments, type GlobOwners } from '../../src/resolve/co-attachment.js';
import { detectConflicts, type ConflictEvent } from '../../src/conflicts/detect.js';
import { POLICY, resolveTree, type Tree } from './tree.js';

const detect = (tree: Tree, paths: string[] = []) => detectConflicts(resolveTree(tree, paths), POLICY, '2026-01-01').value;
const summary = (e: ConflictEvent) => ({ kind: e.kind, topic: e.topic, sides: e.sides.map((s) => `${s.source}:${s.line}`) });
const claudeRule = (paths: string[], body: string) => `---\npaths:\n${paths.map((p) => `  - "${p}"`).join('\n')}\n---\n\n# Rule\n\n${body}`;
const cursorRule = (globs: string, body: string) => `---\nglobs: ${globs}\n---\n\n# Rule\n\n${body}`;

describe('coAttachments', () => {
  it.each<[string, GlobOwners[], { attachments: number[]; dirs: string[]; paths: number }[]]>([
    ['no path matched twice: no group', [{ matches: ['a/x.ts'], owners: [0] }, { matches: ['b/y.ts'], owners: [1] }], []],
    ['one shared path', [{ matches: ['a/x.ts', 'b/y.ts'], owners: [0] }, { matches: ['b/y.ts'], owners: [1] }],
      [{ attachments: [0, 1], dirs: ['b'], paths: 1 }]],
    // Two globs of one rule on one path: the rule once.
    ['two globs of one rule', [{ matches: ['a/x.ts'], owners: [0] }, { matches: ['a/x.ts'], owners: [0] }, { matches: ['c/z.ts'], owners: [1] }], []],
    // One glob that several rules share (`docs/**`) attaches them together wherever it matches.
    ['a glob shared by two rules', [{ matches: ['docs/a.md', 'docs/b.md'], owners: [0, 1] }, { matches: ['src/x.ts'], owners: [1] }],
      [{ attachments: [0, 1], dirs: ['docs'], paths: 2 }]],
    ['paths grouped by the exact set of rules they load', [
      { matches: ['a/1.ts', 'a/2.ts', 'b/3.ts'], owners: [0, 1] }, { matches: ['b/3.ts'], owners: [2] }, { matches: ['b/3.ts'], owners: [1] },
    ], [{ attachments: [0, 1], dirs: ['a'], paths: 2 }, { attachments: [0, 1, 2], dirs: ['b'], paths: 1 }]],
  ])('%s', (_name, globs, want) => {
    expect(coAttachments(globs)).toEqual(want);
  });
});

describe('two glob-scoped rules of one agent that attach to the same files', () => {
  const tests = ['**/__tests__/**'];
  const specs = ['**/__tests__/**/*.spec.ts'];
  const paths = ['src/__tests__/a.spec.ts', 'src/b.ts'];

  it.each<[string, Tree, string[]]>([
    ['two Claude rules whose paths share a file disagree', {
      '.claude/rules/testing.md': claudeRule(tests, '- Never log request bodies in tests.\n'),
      '.claude/rules/unit.md': claudeRule(specs, '- Log the full request body at debug level.\n'),
    }, ['contradiction directive .claude/rules/testing.md:8 .claude/rules/unit.md:8']],
    ['rules whose paths share no file are never compared', {
      '.claude/rules/testing.md': claudeRule(['src/__tests__/**'], '- Never log request bodies in tests.\n'),
      '.claude/rules/other.md': claudeRule(['lib/**'], '- Log the full request body at debug level.\n'),
    }, []],
    ['a Claude rule and a Cursor rule on the same file: no agent is given both', {
      '.claude/rules/testing.md': claudeRule(tests, '- Never log request bodies in tests.\n'),
      '.cursor/rules/unit.mdc': cursorRule('**/*.spec.ts', '- Log the full request body at debug level.\n'),
    }, []],
    ['two Cursor rules: the cascade rules on them, the narrower base wins', {
      '.cursor/rules/all.mdc': cursorRule('**/*.ts', '- Log the full request body at debug level.\n'),
      '.cursor/rules/src.mdc': cursorRule('src/**/*.ts', '- Never log request bodies.\n'),
    }, ['override directive .cursor/rules/all.mdc:7 .cursor/rules/src.mdc:7']],
  ])('%s', (_name, tree, want) => {
    const found = detect(tree, paths).filter((e) => e.topic !== 'duplicate-text').map((e) => `${e.kind} ${e.topic} ${e.sides.map((s) => `${s.source}:${s.line}`).join(' ')}`);
    expect(found).toEqual(want);
  });

  const LIST = [
    '- Utility functions, custom hooks, API utilities, data transformations, business logic: Required',
    '- React components (isolated logic, render conditions, simple interactions): Optional',
  ].join('\n');
  const TABLE = [
    '| Category | Requirement |', '|---|---|',
    '| Utility functions, custom hooks, API utilities, data transformations, business logic | ✅ Required |',
    '| React components (isolated logic, render conditions, simple interactions) | ⚪ Optional |',
  ].join('\n');

  it('a copied block (a list against a table of the same rows) is a duplicate, one event per row', () => {
    const found = detect({ '.claude/rules/testing.md': claudeRule(tests, `${LIST}\n`), '.claude/rules/unit.md': claudeRule(specs, `${TABLE}\n`) }, paths);
    expect(found.map((e) => ({ ...summary(e), severity: e.severity })).sort((x, y) => ((x.sides[0] as string) < (y.sides[0] as string) ? -1 : 1))).toEqual([
      { kind: 'duplicate', topic: 'duplicate-text', sides: ['.claude/rules/testing.md:8', '.claude/rules/unit.md:10'], severity: 'warning' },
      { kind: 'duplicate', topic: 'duplicate-text', sides: ['.claude/rules/testing.md:9', '.claude/rules/unit.md:11'], severity: 'warning' },
    ]);
  });

  it.each<[string, Tree]>([
    ['one shared stock line is not a copied section', {
      '.claude/rules/testing.md': claudeRule(tests, '- Mock the network layer for unit tests\n- Test both success and failure scenarios\n- Keep fixtures small\n'),
      '.claude/rules/unit.md': claudeRule(specs, '- Use real servers for integration tests\n- Test both success and failure scenarios\n- Verify session cleanup\n'),
    }],
    ['the same block in rules that share no file', {
      '.claude/rules/testing.md': claudeRule(['src/__tests__/**'], `${LIST}\n`),
      '.claude/rules/other.md': claudeRule(['lib/**'], `${TABLE}\n`),
    }],
  ])('%s: no event', (_name, tree) => {
    expect(detect(tree, [...paths, 'lib/c.ts'])).toEqual([]);
  });
});

describe('an agent-requested rule (a Cursor rule with only a description)', () => {
  const requested = (body: string) => `---\ndescription: Adding SDK options\nalwaysApply: false\n---\n# Options\n\n${body}`;

  it('copies a root file\'s rule: a copy event (info), which drifts, never a duplicate', () => {
    const found = detect({
      'AGENTS.md': '# Guide\n\n- New features must be **opt-in by default** - extend `Options` with getters and setters\n',
      '.cursor/rules/options.mdc': requested('New features must be **opt-in by default**. Options control whether a feature is enabled.\n'),
    });
    expect(found.map((e) => ({ ...summary(e), severity: e.severity }))).toEqual([
      { kind: 'copy', topic: 'duplicate-text', sides: ['.cursor/rules/options.mdc:7', 'AGENTS.md:3'], severity: 'info' },
    ]);
  });

  it('is not compared for disagreements: it loads only when the agent asks for it', () => {
    expect(detect({
      'AGENTS.md': '# Guide\n\n- Never log request bodies.\n',
      '.cursor/rules/logging.mdc': requested('- Log the full request body at debug level.\n'),
    })).toEqual([]);
  });

  it('two agent-requested rules are never compared with each other', () => {
    const line = '- Keep pull requests under 400 changed lines and link the ticket in the description.\n';
    expect(detect({ '.cursor/rules/a.mdc': requested(line), '.cursor/rules/b.mdc': requested(line) })).toEqual([]);
  });
});
