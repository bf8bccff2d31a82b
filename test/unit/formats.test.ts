import { describe, expect, it } from 'vitest';
import { classifyPath, FORMATS, type Classified } from '../../src/formats/formats.js';
import type { FormatName } from '../../src/types.js';

function as(name: FormatName, scope: string): Classified {
  const spec = FORMATS.find((f) => f.name === name);
  if (!spec) throw new Error(`no format ${name}`);
  return { spec, scope };
}

describe('classifyPath', () => {
  it.each<[string, Classified]>([
    ['AGENTS.md', as('agents', '')],
    ['packages/api/AGENTS.md', as('agents', 'packages/api')],
    ['AGENTS.override.md', as('agents-override', '')],
    ['a/b/AGENTS.override.md', as('agents-override', 'a/b')],
    ['CLAUDE.md', as('claude', '')],
    ['packages/api/CLAUDE.md', as('claude', 'packages/api')],
    ['.claude/CLAUDE.md', as('claude-dot', '')],
    ['packages/api/.claude/CLAUDE.md', as('claude-dot', 'packages/api')],
    ['CLAUDE.local.md', as('claude-local', '')],
    ['packages/api/CLAUDE.local.md', as('claude-local', 'packages/api')],
    ['GEMINI.md', as('gemini', '')],
    ['docs/GEMINI.md', as('gemini', 'docs')],
    ['.github/copilot-instructions.md', as('copilot', '')],
    ['.cursorrules', as('cursorrules', '')],
    ['.claude/rules/x.md', as('claude-rule', '')],
    ['.claude/rules/a/b.md', as('claude-rule', '')],
    ['packages/api/.claude/rules/y.md', as('claude-rule', 'packages/api')],
    ['packages/api/.claude/rules/deep/y.md', as('claude-rule', 'packages/api')],
    ['.claude/rules/x.local.md', as('claude-rule-local', '')],
    ['packages/api/.claude/rules/x.local.md', as('claude-rule-local', 'packages/api')],
    ['.cursor/rules/x.mdc', as('cursor-rule', '')],
    ['.cursor/rules/sub/x.mdc', as('cursor-rule', '')],
    ['web/.cursor/rules/x.mdc', as('cursor-rule', 'web')],
    ['.github/instructions/x.instructions.md', as('copilot-instructions', '')],
    ['.github/instructions/a/x.instructions.md', as('copilot-instructions', '')],
  ])('%s', (path, expected) => {
    expect(classifyPath(path)).toEqual(expected);
  });

  it.each([
    'agents.md',
    'Agents.md',
    'claude.md',
    'README.md',
    'CLAUDE.md.bak',
    'AGENTS.md~',
    'docs/AGENTS.mdx',
    'a/.github/copilot-instructions.md',
    '.github/copilot-instructions.md.bak',
    'a/.cursorrules',
    '.cursorrules.bak',
    '.cursor/rules/x.md',
    '.cursor/rules/x.mdc.bak',
    'x.cursor/rules/y.mdc',
    '.cursor/x.mdc',
    '.claude/rules/x.txt',
    '.claude/x.md',
    'x.claude/rules/y.md',
    '.claude/rulesx/y.md',
    '.github/instructions/x.md',
    '.github/x.instructions.md',
    '',
  ])('%j is not an instruction file', (path) => {
    expect(classifyPath(path)).toBeNull();
  });

  it('gives each format one rank, local formats last and marked personal', () => {
    expect(FORMATS.map((f) => [f.name, f.rank, f.personal, f.globKey ?? null, f.globDialect ?? null])).toEqual([
      ['agents-override', 10, false, null, null],
      ['agents', 11, false, null, null],
      ['claude-dot', 21, false, null, null],
      ['claude', 20, false, null, null],
      ['gemini', 30, false, null, null],
      ['copilot', 40, false, null, null],
      ['cursorrules', 41, false, null, null],
      ['claude-rule', 50, false, 'paths', 'root'],
      ['cursor-rule', 51, false, 'globs', 'anywhere'],
      ['copilot-instructions', 52, false, 'applyTo', 'root'],
      ['claude-local', 90, true, null, null],
      ['claude-rule-local', 91, true, 'paths', 'root'],
    ]);
  });
});
