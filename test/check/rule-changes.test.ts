/**
 * Which changed paths make `rulec check` compile: instruction files, the
 * policy, and files the instruction files import — directly or through
 * other imported files of any extension, or through links — never a file
 * nothing imports. Each case is answered twice: walking the tree, then from
 * the closure kept in the git directory, with the same answer.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nameEndings, ruleChanges } from '../../src/source/rule-changes.js';
import { classifyPath, formatPathspecs } from '../../src/formats/formats.js';
import { git } from '../helpers/fixture-repo.js';
import { history, type History, type TreeEdit } from '../diff/history.js';

const made: History[] = [];
afterAll(() => { for (const h of made) h.cleanup(); });

const BASE: TreeEdit = {
  'CLAUDE.md': '# Claude\n\nSee @docs/a.md and mail ops@example.com.\n',
  'docs/a.md': '# A\n\nAlso @b.txt\n',
  'docs/b.txt': 'b\n',
  'CLAUDE.local.md': 'Personal, committed anyway: @docs/my\\ notes.md and @docs/missing.md and @vendor/guide.md\n',
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

function headAfter(edit: TreeEdit): History {
  const h = history(BASE);
  made.push(h);
  h.commit('head', edit);
  return h;
}

const closures = (repo: string): string => join(repo, '.git', 'rulec', 'closures');

async function relevantAfter(edit: TreeEdit): Promise<string[]> {
  const h = headAfter(edit);
  const cold = await ruleChanges(h.repo, 'HEAD~1', 'HEAD');
  const warm = await ruleChanges(h.repo, 'HEAD~1', 'HEAD');
  expect(warm).toEqual(cold);
  expect(cold.notes).toEqual([]);
  return cold.relevant;
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
    ['a link on the way to an import, retargeted', { 'shared': { link: 'common2' }, 'common2/style.md': 'other style\n' }, ['common2/style.md', 'shared']],
    ['a link where an import needs a directory', { 'vendor': { link: 'common' } }, ['vendor']],
    ['a file created where an import pointed at nothing', { 'docs/missing.md': 'now there\n' }, ['docs/missing.md']],
  ] as [string, TreeEdit, string[]][])('%s', async (_name, edit, want) => {
    expect(await relevantAfter(edit)).toEqual(want);
  });
});

describe('the name endings git grep searches by', () => {
  it('are the shortest endings of the pathspecs\' names, and every instruction file has one', () => {
    expect(nameEndings([':(glob)**/AGENTS.md', ':(glob)**/.claude/rules/**/*.md', ':(glob).cursorrules'])).toEqual(['.cursorrules', '.md']);
    expect(nameEndings([':(glob)**/AGENTS.md'])).toEqual(['AGENTS.md']);
    expect(nameEndings(['docs/*', '**/AGENTS.md'])).toEqual(['']);
    const ends = nameEndings(formatPathspecs(true));
    for (const p of ['AGENTS.md', 'a/AGENTS.override.md', '.cursorrules', '.github/copilot-instructions.md', 'x/.cursor/rules/a/b.mdc',
      'x/.github/instructions/a.instructions.md', 'a/.claude/rules/r.local.md', 'CLAUDE.local.md', 'GEMINI.md', '.claude/CLAUDE.md']) {
      expect(classifyPath(p)).not.toBeNull();
      expect({ p, covered: ends.some((e) => p.endsWith(e)) }).toEqual({ p, covered: true });
    }
  });
});

describe('an instruction file git treats as binary', () => {
  it.each([
    ['marked binary in .gitattributes', { '.gitattributes': 'CLAUDE.md binary\n', 'CLAUDE.md': 'See @docs/x.md\n' }],
    ['holding a NUL byte', { 'CLAUDE.md': 'See @docs/x.md\n\u0000\n' }],
  ] as [string, TreeEdit][])('%s: its imports still count', async (_name, base) => {
    const h = history({ ...base, 'docs/x.md': 'x\n', 'src/a.ts': 'export {};\n' });
    made.push(h);
    h.commit('head', { 'docs/x.md': 'x changed\n' });
    expect((await ruleChanges(h.repo, 'HEAD~1', 'HEAD')).relevant).toEqual(['docs/x.md']);
  });
});

describe('the closure kept in the git directory', () => {
  const treeOf = (h: History, rev: string): string => git(h.repo, 'rev-parse', `${rev}^{tree}`).trim();

  it('is written by tree id, and a check with no rule change reads it instead of walking the tree', async () => {
    const h = headAfter({ 'src/x.ts': 'export const x = 1;\n' });
    expect((await ruleChanges(h.repo, 'HEAD~1', 'HEAD')).relevant).toEqual([]);
    const entry = join(closures(h.repo), `${treeOf(h, 'HEAD~1')}.json`);
    expect(existsSync(entry)).toBe(true);
    // Proof that the entry is read: one that claims src/x.ts is imported makes it count.
    const kept = JSON.parse(readFileText(entry)) as { reached: string[] };
    writeFileSync(entry, JSON.stringify({ ...kept, reached: [...kept.reached, 'src/x.ts'] }));
    const forged = await ruleChanges(h.repo, 'HEAD~1', 'HEAD');
    expect(forged.relevant).toEqual(['src/x.ts']);
  });

  it.each([
    ['truncated', (text: string) => text.slice(0, 20)],
    ['not an object', () => '[1, 2]'],
    ['for another tree', (text: string) => text.replace(/"tree":"[0-9a-f]+"/, '"tree":"0000"')],
    ['paths that are not strings', (text: string) => text.replace(/"reached":\[/, '"reached":[7,')],
  ])('a damaged entry (%s) is ignored with a note and rewritten', async (_name, damage) => {
    const h = headAfter({ 'docs/b.txt': 'b changed\n', 'src/x.ts': 'export const x = 2;\n' });
    await ruleChanges(h.repo, 'HEAD~1', 'HEAD');
    const entry = join(closures(h.repo), `${treeOf(h, 'HEAD~1')}.json`);
    writeFileSync(entry, damage(readFileText(entry)));
    const again = await ruleChanges(h.repo, 'HEAD~1', 'HEAD');
    expect(again.relevant).toEqual(['docs/b.txt']);
    expect(again.notes).toEqual([expect.stringMatching(/^ignored a damaged check cache entry .*; it is rebuilt$/)]);
    expect((await ruleChanges(h.repo, 'HEAD~1', 'HEAD')).notes).toEqual([]);
  });

  it('an entry made under other rules (another compiler version) is a miss, not a note', async () => {
    const h = headAfter({ 'src/x.ts': 'export const x = 3;\n' });
    await ruleChanges(h.repo, 'HEAD~1', 'HEAD');
    const entry = join(closures(h.repo), `${treeOf(h, 'HEAD~1')}.json`);
    const kept = JSON.parse(readFileText(entry)) as { reached: string[] };
    writeFileSync(entry, JSON.stringify({ ...kept, key: 'other', reached: ['src/x.ts'] }));
    const again = await ruleChanges(h.repo, 'HEAD~1', 'HEAD');
    expect(again).toMatchObject({ relevant: [], notes: [] });
  });

  it('is never read from the work tree, where a pull request could commit one', async () => {
    const h = headAfter({ 'src/x.ts': 'export const x = 4;\n' });
    await ruleChanges(h.repo, 'HEAD~1', 'HEAD');
    expect(readdirSync(h.repo).filter((n) => n === '.rulec')).toEqual([]);
  });
});

function readFileText(file: string): string {
  return readFileSync(file, 'utf8');
}
