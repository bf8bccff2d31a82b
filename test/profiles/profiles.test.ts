/**
 * What each profile reports besides the text: the files in load order, what
 * was cut or skipped and why. Codex/Claude/Gemini/Copilot rows use the captured
 * fixtures (their text is checked in conformance.test.ts); Cursor rows are
 * derived from Cursor's documentation, not captured.
 */
import { describe, expect, it } from 'vitest';
import { PROFILES, profileByName } from '../../src/profiles/registry.js';
import { fixtureView, memoryView } from './repo-view.js';

const load = (name: string, fixture: string, cwd: string, options: Record<string, unknown> = {}) =>
  profileByName(name)!.load(fixtureView(fixture), cwd, options);
const brief = (files: { path: string; keptBytes: number; cut?: unknown; skipped?: string }[]) =>
  files.map((f) => [f.path, f.keptBytes, f.cut ?? null, f.skipped ?? null]);

describe('registry', () => {
  it('has one versioned profile per agent, with unique names', () => {
    expect(PROFILES.map((p) => [p.name, p.agentVersion])).toEqual([
      ['codex', '0.171.0'], ['claude-code', '2.1.332'], ['gemini-cli', '0.61.0'],
      ['copilot-cli', '1.0.102'], ['cursor', 'docs-2.0'], ['qwen-code', '0.24.4'],
    ]);
    expect(profileByName('nope')).toBeUndefined();
  });
});

describe('codex', () => {
  it('cuts inside a CJK character and accounts for every byte', () => {
    const r = load('codex', 'g-budget-utf8', 'packages/api', { project_doc_max_bytes: 25 });
    expect(brief(r.files)).toEqual([
      ['AGENTS.md', 25, { offset: 25, bytesLost: 23 }, null],
      ['packages/api/AGENTS.md', 0, null, 'budget exhausted: earlier files used all 25 bytes of project_doc_max_bytes'],
    ]);
    expect(r.truncated).toBe(true);
    expect(r.budget).toEqual({ unit: 'bytes', limit: 25, used: 25 });
    expect(r.text).toContain('MARKER-g-root \uFFFD\n</INSTRUCTIONS>');
  });

  it('lets an override shadow AGENTS.md and a blank override blank its directory', () => {
    expect(brief(load('codex', 'd-empty-override', 'packages/api').files)).toEqual([
      ['AGENTS.override.md', 0, null, 'blank: contributes nothing (and shadows the other candidates)'],
      ['AGENTS.md', 0, null, 'shadowed by AGENTS.override.md'],
      ['packages/api/AGENTS.override.md', 0, null, 'blank: contributes nothing (and shadows the other candidates)'],
      ['packages/api/AGENTS.md', 0, null, 'shadowed by packages/api/AGENTS.override.md'],
    ]);
  });

  it('takes the first global file that is not blank', () => {
    const r = load('codex', 'h-global-files', '');
    expect(brief(r.files).slice(0, 2)).toEqual([
      ['~/.codex/AGENTS.override.md', 0, null, 'blank: the next global candidate is tried'],
      ['~/.codex/AGENTS.md', 46, null, null],
    ]);
  });

  it('treats a nested .git as the project root', () => {
    const view = memoryView({ 'AGENTS.md': 'root\n', 'sub/.git': 'gitdir: x\n', 'sub/AGENTS.md': 'sub\n' });
    expect(profileByName('codex')!.load(view, 'sub', {}).files.map((f) => f.path)).toEqual(['sub/AGENTS.md']);
    expect(profileByName('codex')!.load(view, 'sub', { project_root_markers: [] }).files.map((f) => f.path)).toEqual(['sub/AGENTS.md']);
  });
});

describe('claude-code', () => {
  it('follows imports depth-first and says why each one was dropped', () => {
    const r = load('claude-code', 'i-imports', '');
    expect(brief(r.files).map(([p, , , s]) => [p, s])).toEqual([
      ['CLAUDE.md', null],
      ['docs/d1.md', null], ['docs/d2.md', null], ['docs/d3.md', null], ['docs/d4.md', null],
      ['docs/d5.md', 'import depth over 4 hops'],
      ['docs/cycle-a.md', null], ['docs/cycle-b.md', null],
      ['docs/cycle-a.md', 'already loaded (cycle or repeat)'],
      ['docs/missing.md', 'import target not found (dropped silently)'],
      ['../_outside/outside.md', 'external import (outside cwd): needs approval, dropped in non-interactive mode'],
      ['docs/list.md', null],
      ['packages/api/CLAUDE.md', 'lazy: loads when Claude reads a file in its directory'],
    ]);
  });

  it('lists lazy rules and ignored AGENTS.md files', () => {
    const r = load('claude-code', 'j-mixed', 'packages/web');
    const skipped = r.files.filter((f) => f.skipped).map((f) => [f.path, f.skipped]);
    expect(skipped).toEqual([
      ['AGENTS.md', 'ignored: a CLAUDE.md, .claude/CLAUDE.md or CLAUDE.local.md is on the path to cwd'],
      ['.claude/rules/lazy.md', 'lazy: has paths:, loads when a matching file is read'],
      ['packages/AGENTS.md', 'ignored: a CLAUDE.md, .claude/CLAUDE.md or CLAUDE.local.md is on the path to cwd'],
      ['packages/web/AGENTS.md', 'ignored: a CLAUDE.md, .claude/CLAUDE.md or CLAUDE.local.md is on the path to cwd'],
    ]);
  });
});

describe('gemini-cli and copilot-cli', () => {
  it('Gemini lists context files below cwd as just-in-time', () => {
    const r = load('gemini-cli', 'j-mixed', '', { context_file_names: ['AGENTS.md', 'GEMINI.md'] });
    expect(r.files.filter((f) => f.skipped).map((f) => f.path)).toEqual([
      'packages/AGENTS.md', 'packages/api/AGENTS.md', 'packages/api/GEMINI.md', 'packages/api/src/AGENTS.md', 'packages/web/AGENTS.md',
    ]);
  });

  it('Copilot lists path-specific instruction files as lazy', () => {
    const r = load('copilot-cli', 'j-mixed', '');
    expect(r.files.filter((f) => f.skipped).map((f) => f.path)).toEqual(['.github/instructions/ts.instructions.md', '.claude/rules/lazy.md']);
  });
});

describe('sessions of one view', () => {
  // Claude Code's rules and Copilot CLI's rule section are worked out once per view and directory
  // (each session below lists them all); a session must get what it gets from a view of its own.
  const files = {
    'AGENTS.md': 'Root\n', 'CLAUDE.md': 'Claude root\n',
    '.claude/rules/always.md': 'Always\n', '.claude/rules/ts.md': '---\npaths: ["**/*.ts"]\n---\nTS\n',
    '.github/instructions/all.instructions.md': '---\napplyTo: "**"\n---\nAll\n',
    '.github/instructions/api.instructions.md': '---\napplyTo: "api/**"\ndescription: API | rules\n---\nAPI\n',
    'api/AGENTS.md': 'API\n', 'api/.github/instructions/own.instructions.md': '---\napplyTo: "src/**"\n---\nOwn\n',
    'api/.claude/rules/own.md': '---\npaths: ["src/**"]\n---\nOwn rule\n', 'api/.claude/rules/plain.md': 'Plain\n',
    'web/AGENTS.md': 'Web\n', 'web/src/a.ts': '', 'api/src/b.ts': '',
  };
  it.each(['claude-code', 'copilot-cli'])('%s: each cwd as a fresh view answers it, in any order', (name) => {
    const profile = profileByName(name)!;
    const cwds = ['', 'api', 'web', 'api/src', 'web/src', ''];
    const shared = memoryView(files);
    const together = cwds.map((cwd) => profile.load(shared, cwd, {}));
    const alone = cwds.map((cwd) => profile.load(memoryView(files), cwd, {}));
    expect(together).toEqual(alone);
    // Not vacuous: api has rules of its own, web does not, and both list the root's lazy rules.
    const lazy = (r: (typeof together)[number]) => r.files.filter((f) => f.skipped?.startsWith('lazy')).map((f) => f.path);
    expect(lazy(together[1]!).length).toBeGreaterThan(lazy(together[2]!).length);
    expect(lazy(together[2]!)).toEqual(lazy(together[0]!));
  });
});

describe('cursor (derived from documentation, not captured)', () => {
  it('loads alwaysApply rules, .cursorrules and AGENTS.md; globs rules are lazy; plain .md is ignored', () => {
    const view = memoryView({
      '.cursor/rules/a.mdc': '---\nalwaysApply: true\n---\nAlways A\n',
      '.cursor/rules/b.mdc': '---\nglobs: *.ts\n---\nTS only\n',
      '.cursor/rules/c.mdc': '---\ndescription: when asked\n---\nRequested\n',
      '.cursor/rules/d.mdc': 'Manual\n',
      '.cursor/rules/e.md': 'Ignored\n',
      '.cursorrules': 'Legacy\n',
      'AGENTS.md': 'Agents root\n',
      'pkg/.cursor/rules/n.mdc': '---\nalwaysApply: true\n---\nNested\n',
      'other/.cursor/rules/o.mdc': '---\nalwaysApply: true\n---\nNot on the path\n',
    });
    const r = profileByName('cursor')!.load(view, 'pkg', {});
    expect(r.text).toBe('<rule path=".cursor/rules/a.mdc">\nAlways A\n</rule>\n\n<rule path="pkg/.cursor/rules/n.mdc">\nNested\n</rule>\n\n' +
      '<rule path=".cursorrules">\nLegacy\n</rule>\n\n<rule path="AGENTS.md">\nAgents root\n</rule>');
    expect(r.files.filter((f) => f.skipped).map((f) => [f.path, f.skipped])).toEqual([
      ['.cursor/rules/b.mdc', 'lazy: auto-attached when a file matching its globs is in context'],
      ['.cursor/rules/c.mdc', 'lazy: agent-requested, only its description is offered'],
      ['.cursor/rules/d.mdc', 'manual: loads only when @-mentioned'],
      ['.cursor/rules/e.md', 'not an .mdc file: Cursor ignores it'],
    ]);
  });
});

describe('every profile', () => {
  it('counts bytes and tokens of its text and never reads outside its view', () => {
    for (const p of PROFILES) {
      const r = p.load(fixtureView('j-mixed'), 'packages/api/src', {});
      expect(r.bytes).toBe(new TextEncoder().encode(r.text).length);
      expect(r.tokens > 0).toBe(r.text.length > 0);
      expect(r.profile).toBe(p.name);
    }
  });
});
