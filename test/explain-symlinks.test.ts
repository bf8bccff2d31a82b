/**
 * `explain` through symbolic links (issue #10.8): with one link, and with a
 * chain CLAUDE.md → AGENTS.md → .agents/AGENTS.md, every file behind the
 * loaded one is "the same file", never "shadowed by AGENTS.override.md"
 * (there is none) or "not on this path's chain".
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { write, type TreeEdit } from './diff/history.js';
import { compile } from '../src/compile.js';
import { explainPath } from '../src/report/explain.js';

const scratch = mkdtempSync(join(tmpdir(), 'rulec-explain-links-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let n = 0;
function tree(files: TreeEdit): string {
  const root = join(scratch, `r${n++}`);
  mkdirSync(root, { recursive: true });
  write(root, files);
  return root;
}

async function notLoaded(files: Record<string, string | { link: string }>, path: string): Promise<{ loaded: string[]; not: string[] }> {
  const repo = tree(files);
  const r = await compile({ repoDir: repo, outDir: join(repo, 'out') });
  const e = explainPath(r.manifest, path);
  return { loaded: e.sources.map((s) => s.id), not: e.not_loaded.map((x) => `${x.id} — ${x.why}`) };
}

const AGENTS = '# Agents\n\nUse pnpm.\n';

describe('explain through symlinks', () => {
  it('one link: CLAUDE.md → AGENTS.md', async () => {
    expect(await notLoaded({ 'AGENTS.md': AGENTS, 'CLAUDE.md': { link: 'AGENTS.md' }, 'src/a.ts': '' }, 'src/a.ts')).toEqual({
      loaded: ['AGENTS.md'],
      not: ['CLAUDE.md — same file as AGENTS.md (symlink)'],
    });
  });

  it('a chain: CLAUDE.md → AGENTS.md → .agents/AGENTS.md, explained inside .agents', async () => {
    const files = { '.agents/AGENTS.md': AGENTS, 'AGENTS.md': { link: '.agents/AGENTS.md' }, 'CLAUDE.md': { link: 'AGENTS.md' }, '.agents/skills/s.md': 'skill\n' };
    expect(await notLoaded(files, '.agents/skills/s.md')).toEqual({
      loaded: ['AGENTS.md'],
      not: [
        '.agents/AGENTS.md — same file as AGENTS.md (AGENTS.md is a symlink to it)',
        'CLAUDE.md — same file as AGENTS.md (both are symlinks to .agents/AGENTS.md)',
      ],
    });
  });

  it('still says "shadowed" when an AGENTS.override.md is there', async () => {
    const files = { 'AGENTS.md': AGENTS, 'AGENTS.override.md': '# Override\n\nUse npm.\n', 'src/a.ts': '' };
    expect((await notLoaded(files, 'src/a.ts')).not).toEqual(['AGENTS.md — shadowed by AGENTS.override.md in the same directory']);
  });
});
