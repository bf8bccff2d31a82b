/**
 * Which changed paths make `rulec check` compile: instruction files, the
 * policy, and files head's instruction files import — directly or through
 * other imported files of any extension — never a file nothing imports.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ruleChanges } from '../../src/source/rule-changes.js';
import { history, type History } from '../diff/history.js';

const made: History[] = [];
afterAll(() => { for (const h of made) h.cleanup(); });

const BASE = {
  'CLAUDE.md': '# Claude\n\nSee @docs/a.md and mail ops@example.com.\n',
  'docs/a.md': '# A\n\nAlso @b.txt\n',
  'docs/b.txt': 'b\n',
  'docs/c.md': 'nothing imports this\n',
  'docs/d.md': 'imported by nobody, but names @a.md itself\n',
  'example.com': 'not an import target: the @ is not at a word start\n',
  'src/x.ts': 'export {};\n',
  '.claude/rules/r.md': '---\npaths: ["src/**"]\n---\nUse @/etc/passwd and @../outside.md\n',
};

async function relevantAfter(edit: Record<string, string | null>): Promise<string[]> {
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
    ['a Markdown file nothing imports', { 'docs/c.md': 'still nothing\n', 'docs/d.md': 'changed\n' }, []],
    ['a source file, and a file an e-mail address names', { 'src/x.ts': 'export const x = 1;\n', 'example.com': 'changed\n' }, []],
    ['a new import in head makes its target count', { 'CLAUDE.md': '# Claude\n\nSee @docs/a.md and @docs/c.md\n', 'docs/c.md': 'now imported\n' }, ['CLAUDE.md', 'docs/c.md']],
  ] as [string, Record<string, string | null>, string[]][])('%s', async (_name, edit, want) => {
    expect(await relevantAfter(edit)).toEqual(want);
  });
});
