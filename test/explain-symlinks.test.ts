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

// A committed link out of the repository: a PATH through it names nothing in the repository, and
// whether the outside file exists changes nothing rulec prints (nothing outside is stat'ed; the two
// names have the same length, since explain --profile counts the bytes of the path it shows).
describe('a PATH through a link that leaves the repository', () => {
  it('explain, explain --profile and lint answer the same for an outside file that exists and one that does not', async () => {
    const { runCli } = await import('./helpers/run-cli.js');
    const { writeFileSync, symlinkSync } = await import('node:fs');
    const outside = join(scratch, 'outside');
    mkdirSync(outside, { recursive: true });
    writeFileSync(join(outside, 'there.md'), 'x\n');
    const repo = tree({ 'AGENTS.md': AGENTS, 'src/a.ts': '' });
    symlinkSync(outside, join(repo, 'link'));
    const answer = async (args: string[]) => {
      const r = await runCli(args, repo);
      return { code: r.code, out: (r.stdout + r.stderr).replaceAll('there.md', 'X').replaceAll('nopes.md', 'X') };
    };
    for (const args of [['explain', '--fresh', '--format', 'json'], ['explain', '--profile', 'codex'], ['lint']]) {
      const [there, absent] = [await answer([...args, 'link/there.md']), await answer([...args, 'link/nopes.md'])];
      expect({ args, there }).toEqual({ args, there: absent });
    }
    const json = JSON.parse((await runCli(['explain', 'link/there.md', '--fresh', '--format', 'json'], repo)).stdout) as { in_repository: boolean };
    expect(json.in_repository).toBe(false);
  });
});
