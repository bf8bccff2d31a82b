/**
 * The three agents' `@import` scanners on arbitrary text (the captures in
 * expected/ pin their exact output; these pin what must hold for any input):
 * they never throw, text without `@` comes back unchanged, and an expansion
 * only ever inserts text — the original bytes survive in order.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { claudeImportTargets } from '../../src/profiles/claude-imports.js';
import { expandCopilotImports } from '../../src/profiles/copilot-imports.js';
import { expandGeminiImports } from '../../src/profiles/gemini-imports.js';
import { sessionDir } from '../../src/profiles/session-classes.js';
import { memoryView } from './repo-view.js';

/** Markdown-ish text: the characters the scanners care about, often. */
const markdownish = fc.array(fc.constantFrom('@', '`', '*', '_', '#', '>', '-', ' ', '\t', '\n', '\r', '<!--', '-->', '<div>', '```', '~~~',
  '\\', '(', ')', '.', '/', 'a', 'docs/x.md', 'x.md', '~/', '\u00a0'), { maxLength: 60 }).map((parts) => parts.join(''));

const view = memoryView({ 'x.md': 'X @x.md\n', 'docs/x.md': 'D @../x.md\n' });

/** True when `sub` is `whole` with only insertions. */
function isSubsequence(sub: string, whole: string): boolean {
  let i = 0;
  for (const ch of whole) if (i < sub.length && ch === sub[i]) i++;
  return i === sub.length;
}

describe('import scanners (property)', () => {
  it('Claude: never throws; every target came from an @ in the text', () => {
    fc.assert(fc.property(markdownish, (text) => {
      const targets = claudeImportTargets(text);
      if (!text.includes('@')) expect(targets).toEqual([]);
      for (const t of targets) expect(t.length).toBeGreaterThan(0);
    }), { numRuns: 500 });
  });

  it('Copilot: keeps every byte of the text, in order, and adds only import elements', () => {
    fc.assert(fc.property(markdownish, (text) => {
      const out = expandCopilotImports({ view, files: [], loaded: new Set(['CLAUDE.md']) }, text, '', 'CLAUDE.md');
      if (!text.includes('@')) expect(out).toBe(text);
      expect(isSubsequence(text, out)).toBe(true);
    }), { numRuns: 500 });
  });

  it('Gemini: never throws; text without @ comes back unchanged', () => {
    fc.assert(fc.property(markdownish, (text) => {
      const out = expandGeminiImports({ view, files: [], maxDepth: 5 }, text, '', 'GEMINI.md');
      if (!text.includes('@')) expect(out).toBe(text);
    }), { numRuns: 200 });
  });
});

describe('sessionDir', () => {
  it('starts a session above .claude/ and .cursor/, nowhere else', () => {
    expect(['', 'src', '.claude', '.claude/rules/sub', 'pkg/.cursor/rules', '.github/workflows', 'a/.claudex'].map(sessionDir))
      .toEqual(['', 'src', '', '', 'pkg', '.github/workflows', 'a/.claudex']);
  });
});
