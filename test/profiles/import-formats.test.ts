/**
 * `@` text is an import only in formats whose agents expand it (issue #10.6;
 * FormatSpec.expandsImports, from the captures in expected/: Copilot CLI
 * expands AGENTS.md and CLAUDE.md but not its own files, fixture t; Cursor
 * cannot be captured). Elsewhere it is prose: never followed, never reported.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.js';
import { FORMATS, classifyPath, expandsImports } from '../../src/formats/formats.js';

/** Whether the format a path is classified as expands `@` imports (an unclassified, imported file does). */
const expandsAt = (path: string): boolean => { const c = classifyPath(path.replace(/^managed:/, '')); return c === null || expandsImports(c.spec.name); };

const scratch = mkdtempSync(join(tmpdir(), 'rulec-import-formats-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function tree(name: string, files: Record<string, string>): string {
  const root = join(scratch, name);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  return root;
}

describe('which formats expand @imports', () => {
  it('is a fact of each format', () => {
    expect(FORMATS.filter((f) => f.expandsImports === false).map((f) => f.name)).toEqual(
      ['agents-override', 'copilot', 'cursorrules', 'cursor-rule', 'copilot-instructions']);
    expect(['CLAUDE.md', 'AGENTS.md', 'GEMINI.md', '.claude/rules/a.md', 'docs/imported.md', 'managed:CLAUDE.md'].map(expandsAt))
      .toEqual([true, true, true, true, true, true]);
    expect(['.github/copilot-instructions.md', '.github/instructions/a.instructions.md', '.cursor/rules/a.mdc'].map(expandsAt))
      .toEqual([false, false, false]);
  });

  it('reports no import problems in Copilot and Cursor files, and still does in CLAUDE.md', async () => {
    const repo = tree('mixed', {
      '.github/copilot-instructions.md': '# Repo\n\nUse @scope/name from npm and @types/node; see @docs/guide.md.\n',
      '.github/instructions/ts.instructions.md': '---\napplyTo: "**/*.ts"\n---\nPrefer @tanstack/query.\n',
      '.cursor/rules/style.mdc': '---\nalwaysApply: true\n---\nFollow @src/style.ts for examples.\n',
      'AGENTS.override.md': 'Ping @maintainers before merging.\n',
      'CLAUDE.md': '# Claude\n\n@docs/missing.md\n',
      'docs/guide.md': '# Guide\n',
      'src/style.ts': 'export {};\n',
    });
    const r = await compile({ repoDir: repo, outDir: join(repo, 'out') });
    const imports = r.diagnostics.filter((d) => /^RC210/.test(d.code)).map((d) => `${d.code} ${d.file}`);
    expect(imports).toEqual(['RC2101 CLAUDE.md']);
    // Nothing the Copilot file names is pulled into the bundle as an import.
    expect(Object.keys(r.manifest.files).filter((id) => id.startsWith('docs/'))).toEqual([]);
  });
});
