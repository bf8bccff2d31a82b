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
import { write } from './diff/history.js';
import { compile } from '../src/compile.js';
import { explainPath, formatExplanation } from '../src/report/explain.js';

const scratch = mkdtempSync(join(tmpdir(), 'rulec-explain-conflicts-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const PASTED = 'Every change in this area needs a matching update to the integration tests and the changelog.';
const rule = (dir: string): string => `---\npaths:\n  - "${dir}/**"\n---\n\n# Rule for ${dir}\n\n${PASTED}\n`;

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
});
