/**
 * Which changed paths make `rulec check` compile: instruction files, the
 * policy, and files head's instruction files import — directly or through
 * other imported files of any extension — never a file nothing imports.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ruleChanges } from '../../src/source/rule-changes.js';
import { history, type History, type TreeEdit } from '../diff/history.js';

const made: History[] = [];
afterAll(() => { for (const h of made) h.cleanup(); });

const BASE: TreeEdit = {
  'CLAUDE.md': '# Claude\n\nSee @docs/a.md and mail ops@example.com.\n',
  'docs/a.md': '# A\n\nAlso @b.txt\n',
  'docs/b.txt': 'b\n',
  'CLAUDE.local.md': 'Personal, committed anyway: @docs/my\\ notes.md and @docs/missing.md\n',
  'docs/my notes.md': 'a name with a space\n',
  'docs/c.md': 'nothing imports this\n',
  'docs/d.md': 'imported by nobody, but names @a.md itself\n',
  'example.com': 'not an import target: the @ is not at a word start\n',
  'src/x.ts': 'export {};\n',
  '.claude/rules/r.md': '---\npaths: ["src/**"]\n---\nUse @/etc/passwd and @../outside.md\n',
  // Links: an instruction file that is a link (its imports resolve from the link's place,
  // as discovery reads them), and an import through a linked directory.
  'GEMINI.md': { link: 'guides/gemini.md' },
  'guides/gemini.md': '# Gemini\n\nSee @shared/style.md\n',
  'shared': { link: 'common' },
  'common/style.md': 'style\n',
  'common/other.md': 'not imported\n',
};

async function relevantAfter(edit: TreeEdit): Promise<string[]> {
  const h = history(BASE);
  made.push(h);
  h.commit('head', edit);
  return (await ruleChanges(h.repo, 'HEAD~1', 'HEAD')).relevant;
}

describe('ruleChanges', () => {
  it.each([
    ['an instruction file', { 'CLAUDE.md': '# Claude\n\nChanged.\n' }, ['CLAUDE.md']],
    ['the policy', { '.rulec/policy.yaml': 'version: 1\n' }, ['.rulec/policy.yaml']],
    ['a directly imported file', { 'docs/a.md': '# A\n\nAlso @b.txt, changed.\n' }, ['docs/a.md']],
    ['a file imported through another (a .txt)', { 'docs/b.txt': 'b changed\n' }, ['docs/b.txt']],
    ['a deleted imported file', { 'docs/b.txt': null }, ['docs/b.txt']],
    ['a file with a space in its name, imported with an escaped space', { 'docs/my notes.md': 'changed\n' }, ['docs/my notes.md']],
    ['a Markdown file nothing imports', { 'docs/c.md': 'still nothing\n', 'docs/d.md': 'changed\n' }, []],
    ['a source file, and a file an e-mail address names', { 'src/x.ts': 'export const x = 1;\n', 'example.com': 'changed\n' }, []],
    ['the target of an instruction file that is a link', { 'guides/gemini.md': '# Gemini\n\nChanged. See @shared/style.md\n' }, ['guides/gemini.md']],
    ['a file imported through a linked directory', { 'common/style.md': 'style changed\n' }, ['common/style.md']],
    ['a file beside it in that directory that nothing imports', { 'common/other.md': 'changed\n' }, []],
    ['a new import in head makes its target count', { 'CLAUDE.md': '# Claude\n\nSee @docs/a.md and @docs/c.md\n', 'docs/c.md': 'now imported\n' }, ['CLAUDE.md', 'docs/c.md']],
  ] as [string, TreeEdit, string[]][])('%s', async (_name, edit, want) => {
    expect(await relevantAfter(edit)).toEqual(want);
  });
});
