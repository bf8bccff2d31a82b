/**
 * The conflicts `explain PATH` lists: an event is the repository's (a
 * paragraph pasted into many files is one event listing every copy), and a
 * path lists the sides in files it loads — or that its chain shadows — and
 * counts the rest; an event with fewer than two sides at the path is not
 * listed there.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { write, type TreeEdit } from './diff/history.js';
import { compile } from '../src/compile.js';
import { explainPath, formatExplanation } from '../src/report/explain.js';
import { runCli } from './helpers/run-cli.js';

const scratch = mkdtempSync(join(tmpdir(), 'rulec-explain-conflicts-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const PASTED = 'Every change in this area needs a matching update to the integration tests and the changelog.';
const rule = (dir: string): string => `---\npaths:\n  - "${dir}/**"\n---\n\n# Rule for ${dir}\n\n${PASTED}\n`;

let n = 0;
async function built(files: TreeEdit) {
  const repo = join(scratch, `t${n++}`);
  mkdirSync(repo);
  write(repo, files);
  return (await compile({ repoDir: repo, outDir: join(repo, 'out') })).manifest;
}
const kinds = (m: Awaited<ReturnType<typeof built>>, path: string, directory?: boolean): string[] =>
  explainPath(m, path, directory).conflicts.map((c) => `${c.kind}: ${c.sides.map((s) => s.source).join(' + ')}${c.elsewhere ? ` (+${c.elsewhere})` : ''}`);

describe('explain lists the conflict sides at its path', () => {
  it('of a paragraph pasted into the root file and five rules, lists the copies that load at the path and counts the others', async () => {
    const repo = join(scratch, 'pasted');
    mkdirSync(repo);
    const files: Record<string, string> = { 'AGENTS.md': `# Guide\n\n${PASTED}\n`, 'CLAUDE.md': '# Claude\n\nBe brief.\n' };
    for (const d of ['a', 'b', 'c', 'd', 'e']) {
      files[`.claude/rules/${d}.md`] = rule(d);
      files[`${d}/x.ts`] = '';
    }
    write(repo, files);
    const r = await compile({ repoDir: repo, outDir: join(repo, 'out') });
    const e = explainPath(r.manifest, 'a/x.ts');
    const dup = e.conflicts.find((c) => c.kind === 'duplicate');
    expect(dup?.sides.map((s) => s.source).sort()).toEqual(['.claude/rules/a.md', 'AGENTS.md']);
    expect(dup?.elsewhere).toBe(4);
    expect(formatExplanation(e, 'compiled')).toContain('and 4 more in files that do not load at this path');
    // A path no rule attaches to loads one copy: no duplicate there.
    expect(explainPath(r.manifest, 'README.md').conflicts.filter((c) => c.kind === 'duplicate')).toEqual([]);
  });

  it('keeps the side a shadowed file on the chain holds: it says what lost', async () => {
    const repo = join(scratch, 'shadow');
    mkdirSync(repo);
    write(repo, { 'AGENTS.md': '# Root\n\nUse npm.\n', 'AGENTS.override.md': '# Override\n\nUse pnpm.\n', 'src/a.ts': '' });
    const r = await compile({ repoDir: repo, outDir: join(repo, 'out') });
    const shadow = explainPath(r.manifest, 'src/a.ts').conflicts.find((c) => c.kind === 'shadow');
    expect(shadow?.sides.map((s) => s.source)).toEqual(['AGENTS.override.md', 'AGENTS.md']);
    expect(shadow?.elsewhere).toBe(0);
  });

  it('a copy in a file loaded through a symlink is here: the event names the link\'s target', async () => {
    const m = await built({
      'docs/AGENTS.md': `# Docs\n\n${PASTED}\n`, 'pkg/CLAUDE.md': { link: '../docs/AGENTS.md' }, 'pkg/AGENTS.md': `# Pkg\n\n${PASTED}\n`, 'pkg/x.ts': '',
    });
    expect(kinds(m, 'pkg/x.ts').filter((k) => k.startsWith('duplicate'))).toEqual(['duplicate: docs/AGENTS.md + pkg/AGENTS.md']);
  });

  it('an agent-requested rule can load anywhere: its copy event stays listed', async () => {
    const m = await built({
      'AGENTS.md': `# Guide\n\n${PASTED}\n`, '.cursor/rules/notes.mdc': `---\ndescription: Notes on changes\n---\n\n${PASTED}\n`, 'src/x.ts': '',
    });
    const events = explainPath(m, 'src/x.ts').conflicts;
    expect(events.length).toBeGreaterThan(0);
    expect(events.every((c) => c.elsewhere === 0 && c.sides.some((s) => s.source === '.cursor/rules/notes.mdc'))).toBe(true);
  });

  it('at a directory, rules attached to files below it are here; at a file their globs decide', async () => {
    const m = await built({
      'AGENTS.md': `# Guide\n\n${PASTED}\n`, '.claude/rules/ts.md': `---\npaths:\n  - "src/**/*.ts"\n---\n\n${PASTED}\n`, 'src/x.ts': '', 'src/y.md': '',
    });
    // The work tree tells a directory (the CLI passes it); a bundle alone does not index src/.
    expect(kinds(m, 'src', true)).toEqual(['duplicate: .claude/rules/ts.md + AGENTS.md']);
    expect(kinds(m, 'src/x.ts', false)).toEqual(['duplicate: .claude/rules/ts.md + AGENTS.md']);
    expect(kinds(m, 'src/y.md', false)).toEqual([]);
    // Through the CLI, which asks the work tree what src is.
    const repo = join(scratch, `t${n - 1}`);
    const listed = async (path: string) => (JSON.parse((await runCli(['explain', path, '--format', 'json'], repo)).stdout) as { conflicts: unknown[] }).conflicts.length;
    expect([await listed('src'), await listed('src/x.ts'), await listed('src/y.md')]).toEqual([1, 1, 0]);
  });
});
