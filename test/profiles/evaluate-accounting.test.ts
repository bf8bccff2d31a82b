/**
 * Profile accounting on whole builds (issue #10.7), from minimal
 * reproductions of the real-world layouts: a CLAUDE.md that is exactly
 * `@AGENTS.md` (ruff, workers-sdk, nuxt, odh-dashboard), CLAUDE.md symlinked
 * to AGENTS.md (pydantic-ai), and a chain of symlinks. What each agent does
 * there was captured from the real CLIs (fixtures q and r in expected/).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { write, type TreeEdit } from '../diff/history.js';
import { compile } from '../../src/compile.js';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';

const scratch = mkdtempSync(join(tmpdir(), 'rulec-accounting-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let n = 0;
/** A work tree (no git) from `files`; a value `{ link }` makes a symbolic link. */
function tree(files: TreeEdit): string {
  const root = join(scratch, `r${n++}`);
  mkdirSync(root, { recursive: true });
  write(root, files);
  return root;
}

const profileFindings = (ds: readonly Diagnostic[]): string[] =>
  ds.filter((d) => d.code.startsWith('RC55')).map((d) => `${d.code} ${d.severity} ${d.file}: ${d.message}`);

/** `count` source files in each of `dirs`. */
function sources(dirs: string[], count: number): Record<string, string> {
  return Object.fromEntries(dirs.flatMap((d) => Array.from({ length: count }, (_, i) => [`${d}/f${i}.ts`, 'export {};\n'])));
}

describe('a CLAUDE.md that is exactly @AGENTS.md', () => {
  const agents = '# Agents\n\nUse pnpm.\n';

  // 12 paths: 3 at the root (CLAUDE.md, AGENTS.md, root.ts), 9 below it.
  it('is neither "not loaded" nor counted twice; Claude needs approval below the root, Copilot sends it twice', async () => {
    const repo = tree({ 'CLAUDE.md': '@AGENTS.md\n', 'AGENTS.md': agents, 'root.ts': '', ...sources(['src', 'src/a', 'lib'], 3) });
    const r = await compile({ repoDir: repo, outDir: join(repo, 'out') });
    expect(profileFindings(r.diagnostics)).toEqual([
      'RC5506 warning AGENTS.md: Copilot CLI sends AGENTS.md twice at 12 paths: as AGENTS.md and imported by CLAUDE.md (@AGENTS.md)',
      'RC5507 info AGENTS.md: Claude Code loads AGENTS.md at 9 paths only when the user approves it: imported by CLAUDE.md (@AGENTS.md): ' +
        'external import (outside cwd): needs approval, dropped in non-interactive mode',
    ]);
  });

  // 13 paths: lib/CLAUDE.md is one more, below the root.
  it('gives the same verdicts when nested files split the tree into more variants', async () => {
    const repo = tree({
      'CLAUDE.md': '@AGENTS.md\n', 'AGENTS.md': agents, 'root.ts': '', ...sources(['src', 'src/a', 'lib'], 3),
      'lib/CLAUDE.md': '# lib\n\nKeep lib small.\n',
    });
    const r = await compile({ repoDir: repo, outDir: join(repo, 'out') });
    expect(profileFindings(r.diagnostics)).toEqual([
      'RC5506 warning AGENTS.md: Copilot CLI sends AGENTS.md twice at 13 paths: as AGENTS.md and imported by CLAUDE.md (@AGENTS.md)',
      'RC5507 info AGENTS.md: Claude Code loads AGENTS.md at 10 paths only when the user approves it: imported by CLAUDE.md (@AGENTS.md): ' +
        'external import (outside cwd): needs approval, dropped in non-interactive mode',
    ]);
  });

  it('still reports a nested AGENTS.md that Claude never reads, at its own paths only', async () => {
    const repo = tree({ 'CLAUDE.md': '@AGENTS.md\n', 'AGENTS.md': agents, ...sources(['src', 'pkg'], 2), 'pkg/AGENTS.md': '# pkg\n\nRun the pkg tests.\n' });
    const r = await compile({ repoDir: repo, outDir: join(repo, 'out') });
    expect(profileFindings(r.diagnostics).filter((m) => m.includes('pkg/'))).toEqual([
      'RC5503 warning pkg/AGENTS.md: Claude Code does not load pkg/AGENTS.md at 3 paths where rulec does: ignored: a CLAUDE.md, .claude/CLAUDE.md or CLAUDE.local.md is on the path to cwd',
    ]);
  });
});

describe('symbolic links', () => {
  it('CLAUDE.md → AGENTS.md: every agent gets the text once, nothing to report', async () => {
    const repo = tree({ 'AGENTS.md': '# Agents\n\nUse pnpm.\n', 'CLAUDE.md': { link: 'AGENTS.md' }, ...sources(['src'], 2) });
    const r = await compile({ repoDir: repo, outDir: join(repo, 'out') });
    expect(profileFindings(r.diagnostics)).toEqual([]);
  });

  // Codex reads AGENTS.md in every directory on the way, link or not: in .agents and .agents/skills it gets both.
  it('CLAUDE.md → AGENTS.md → .agents/AGENTS.md: Codex sends the text twice in .agents', async () => {
    const repo = tree({
      '.agents/AGENTS.md': '# Agents\n\nUse pnpm.\n', 'AGENTS.md': { link: '.agents/AGENTS.md' }, 'CLAUDE.md': { link: 'AGENTS.md' },
      '.agents/skills/s.md': 'skill\n', ...sources(['src'], 2),
    });
    const r = await compile({ repoDir: repo, outDir: join(repo, 'out') });
    expect(profileFindings(r.diagnostics)).toEqual([
      'RC5506 warning AGENTS.md: Codex sends AGENTS.md twice at 2 paths: as AGENTS.md and as .agents/AGENTS.md',
    ]);
  });
});
