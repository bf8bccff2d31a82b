/**
 * "Adding a format is adding a row": three test-only formats are registered in
 * one place (registerFormat, src/formats/formats.ts) and nothing else is told
 * about them. compile() must discover them (through git's pathspecs for an
 * untracked file, and the policy's `formats:` switch), activate them (standing,
 * and attached by the row's own glob key), validate their frontmatter against
 * the row's schema, render them, record the row's shadowing as a conflict
 * event, and explainPath must say why a shadowed file does not load. After the
 * rows are removed, the same repository has none of it.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.js';
import { classifyPath, formatPathspecs, FORMATS, registerFormat, type FormatSpec } from '../../src/formats/formats.js';
import { explainPath } from '../../src/report/explain.js';
import type { FormatName } from '../../src/types.js';
import { git } from '../helpers/fixture-repo.js';

const name = (n: string): FormatName => n as FormatName;
const named = (file: string) => (path: string): string | null =>
  path === file ? '' : path.endsWith(`/${file}`) ? path.slice(0, -file.length - 1) : null;

/** Notes: NOTES.md in any directory, replaced by NOTES.override.md beside it; rules in .notes/rules scoped by `globs:`. */
const NOTES_OVERRIDE: FormatSpec = {
  name: name('notes-override'), rank: 34, personal: false, family: 'gemini', match: named('NOTES.override.md'),
  pathspec: [':(glob)**/NOTES.override.md'], home: ['.notes/NOTES.override.md'],
  shadows: { format: name('notes'), note: 'replaced by NOTES.override.md here', reason: 'NOTES.override.md replaces NOTES.md in its directory (test format)' },
};
const NOTES: FormatSpec = {
  name: name('notes'), rank: 35, personal: false, family: 'gemini', match: named('NOTES.md'), pathspec: [':(glob)**/NOTES.md'], home: ['.notes/NOTES.md'],
};
const NOTE_RULE: FormatSpec = {
  name: name('note-rule'), rank: 55, personal: false, family: null,
  match: (p) => (p.startsWith('.notes/rules/') && p.endsWith('.note.md') ? '' : null),
  pathspec: [':(glob).notes/rules/**/*.note.md'],
  schema: { id: 'https://rulec.dev/schemas/frontmatter-cursor-rule-v1.json', file: 'schemas/frontmatter-cursor-rule.schema.json', label: 'a test note rule' },
  globKey: 'globs', globDialect: 'anywhere',
  // Globs attach; without them a note rule is manual (never loaded).
  activation: (_fm, globs) => (globs.length > 0 ? 'attached' : 'manual'),
};

const FILES: Record<string, string> = {
  'AGENTS.md': '# Project\n\n- Run the tests before committing.\n',
  'NOTES.md': '# Notes\n\n- Root note for everyone.\n',
  'pkg/NOTES.md': '# Package notes\n\n- Shadowed package note.\n',
  'pkg/NOTES.override.md': '# Override\n\n- Package override note.\n',
  'pkg/src/index.ts': 'export {};\n',
  'web/app.tsx': 'export {};\n',
  '.notes/rules/typo.note.md': '---\nglob: "*.tsx"\n---\n# Typo\n\n- Never attached.\n',
};
/** Left untracked: discovery finds it only through the row's git pathspec. */
const UNTRACKED = { '.notes/rules/web.note.md': '---\nglobs: "*.tsx"\ndescription: web\n---\n# Web\n\n- Use function components.\n' };

let dir = '';
let repo = '';
let home = '';
const write = (root: string, files: Record<string, string>): void => {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rulec-test-format-'));
  repo = join(dir, 'repo');
  home = join(dir, 'home');
  write(repo, FILES);
  git(repo, '-c', 'init.defaultBranch=main', 'init', '-q', '--template=');
  git(repo, 'add', '-A');
  git(repo, '-c', 'commit.gpgsign=false', 'commit', '-q', '--no-verify', '-m', 'fixture');
  write(repo, UNTRACKED);
  write(home, { '.notes/NOTES.override.md': '# Mine\n\n- Home override.\n', '.notes/NOTES.md': '# Shadowed at home\n' });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a format registered in one place', () => {
  let restore: (() => void)[] = [];
  beforeEach(() => {
    restore = [registerFormat(NOTES_OVERRIDE, 'agents'), registerFormat(NOTES, 'agents'), registerFormat(NOTE_RULE)];
  });
  afterEach(() => {
    for (const r of restore.reverse()) r();
  });

  it('is discovered, activated, validated, rendered and explained through compile()', async () => {
    expect(formatPathspecs(false)).toContain(':(glob).notes/rules/**/*.note.md');
    const result = await compile({ repoDir: repo, outDir: join(dir, 'out') });
    const files = result.manifest.files;
    const row = (id: string) => [files[id]?.format, files[id]?.activation, files[id]?.layer];
    // Discovered (the untracked rule through the pathspec), activated by the row's rule and glob key.
    expect(row('NOTES.md')).toEqual(['notes', 'standing', 'repo']);
    expect(row('pkg/NOTES.override.md')).toEqual(['notes-override', 'standing', 'path']);
    expect(row('pkg/NOTES.md')).toEqual(['notes', 'standing', 'path']);
    expect(row('.notes/rules/web.note.md')).toEqual(['note-rule', 'attached', 'path']);
    expect(row('.notes/rules/typo.note.md')).toEqual(['note-rule', 'manual', 'repo']);
    // Validated against the row's schema, named by the row's label.
    const fm = result.diagnostics.filter((d) => d.code.startsWith('RC4')).map((d) => [d.code, d.file, d.message]);
    expect(fm).toEqual([['RC4003', '.notes/rules/typo.note.md', expect.stringMatching(/^unknown frontmatter key "glob": a test note rule reads .*globs/)]]);
    // Rendered: in rank order after AGENTS.md; the override replaces NOTES.md in pkg; the rule is an attachment ('anywhere' dialect).
    const variantAt = (dir: string) => result.variants.find((v) => v.id === result.manifest.index[dir]);
    expect(variantAt('')?.sources.map((s) => s.id)).toEqual(['AGENTS.md', 'NOTES.md']);
    expect(variantAt('pkg')?.sources.map((s) => s.id)).toEqual(['AGENTS.md', 'NOTES.md', 'pkg/NOTES.override.md']);
    expect(variantAt('pkg')?.text).toContain('Package override note.');
    expect(variantAt('pkg')?.text).not.toContain('Shadowed package note.');
    expect(result.attachments.map((a) => [a.globs, a.sources.map((s) => s.id), a.text.includes('Use function components.')]))
      .toEqual([[['**/*.tsx'], ['.notes/rules/web.note.md'], true]]);
    // The shadowing is a conflict event with the row's reason; explain gives the row's note.
    expect(result.manifest.conflicts.map((e) => [e.kind, e.topic, e.adopted, e.reason])).toEqual([
      ['shadow', 'notes-override', 'pkg/NOTES.override.md', NOTES_OVERRIDE.shadows?.reason],
    ]);
    const e = explainPath(result.manifest, 'pkg/src/index.ts');
    expect(e.sources.map((s) => [s.id, s.format])).toEqual([['AGENTS.md', 'agents'], ['NOTES.md', 'notes'], ['pkg/NOTES.override.md', 'notes-override']]);
    expect(e.not_loaded).toContainEqual({ id: 'pkg/NOTES.md', why: 'replaced by NOTES.override.md here' });
    expect(explainPath(result.manifest, 'web/app.tsx').attachments.map((a) => a.sources.map((s) => s.id))).toEqual([['.notes/rules/web.note.md']]);
  });

  it('is switched off by its policy family, and read from its home locations with its shadowing', async () => {
    writeFileSync(join(dir, 'policy.yaml'), 'formats:\n  gemini: false\n');
    const off = await compile({ repoDir: repo, outDir: join(dir, 'out'), policyFile: join(dir, 'policy.yaml') });
    expect(Object.keys(off.manifest.files).sort()).toEqual(['.notes/rules/typo.note.md', '.notes/rules/web.note.md', 'AGENTS.md']);
    const withHome = await compile({ repoDir: repo, outDir: join(dir, 'out'), userHome: home });
    expect(withHome.discovered.files.filter((f) => f.root === 'user').map((f) => f.rel)).toEqual(['.notes/NOTES.override.md']);
  });
});

describe('once the rows are removed', () => {
  it('the same repository has none of them', async () => {
    expect(FORMATS.map((f) => f.name)).not.toContain('notes');
    expect(classifyPath('NOTES.md')).toBeNull();
    const result = await compile({ repoDir: repo, outDir: join(dir, 'out') });
    expect(Object.keys(result.manifest.files)).toEqual(['AGENTS.md']);
    expect(result.diagnostics.filter((d) => d.code.startsWith('RC4'))).toEqual([]);
  });
});
