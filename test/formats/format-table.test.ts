/**
 * Facts on the format table that hold row by row: a row's schema names a
 * shipped schema by its real $id; a shadowing row precedes the row it shadows
 * (home files are read in table order, so the shadowed one is skipped); and
 * every row's pathspecs, family and activation are given.
 */
import { describe, expect, it } from 'vitest';
import { FORMATS, formatPathspecs, formatSpec } from '../../src/formats/formats.js';
import { frontmatterSchemaFiles, loadFrontmatterSchemas, RULEC_SCHEMA } from '../../src/config/frontmatter-schemas.js';

describe('the format table', () => {
  it('names each schema by the $id its file declares, and ships rulec\'s schema and each row\'s once', () => {
    const ids = new Map(frontmatterSchemaFiles().map((f, i) => [f, String(loadFrontmatterSchemas()[i]?.$id)]));
    expect(ids.get(RULEC_SCHEMA.file)).toBe(RULEC_SCHEMA.id);
    for (const f of FORMATS) if (f.schema) expect([f.name, ids.get(f.schema.file)]).toEqual([f.name, f.schema.id]);
    expect(frontmatterSchemaFiles()).toEqual([
      'schemas/frontmatter-rulec.schema.json', 'schemas/frontmatter-claude-rule.schema.json',
      'schemas/frontmatter-cursor-rule.schema.json', 'schemas/frontmatter-copilot-instructions.schema.json',
    ]);
  });

  it('puts a shadowing row before the row it shadows', () => {
    const at = (name: string): number => FORMATS.findIndex((f) => f.name === name);
    const shadowing = FORMATS.filter((f) => f.shadows);
    expect(shadowing.map((f) => [f.name, f.shadows?.format])).toEqual([['agents-override', 'agents']]);
    for (const f of shadowing) expect(at(f.name)).toBeLessThan(at(f.shadows?.format ?? ''));
  });

  it('gives every row a family and pathspecs; personal rows are asked of git only with the ignored files', () => {
    expect(FORMATS.map((f) => [f.name, f.family])).toEqual([
      ['agents-override', 'agents'], ['agents', 'agents'], ['claude-dot', 'claude'], ['claude', 'claude'], ['gemini', 'gemini'],
      ['copilot', 'copilot'], ['cursorrules', 'cursor'], ['claude-rule', 'claude'], ['cursor-rule', 'cursor'],
      ['copilot-instructions', 'copilot'], ['claude-local', 'claude'], ['claude-rule-local', 'claude'],
    ]);
    for (const f of FORMATS) expect([f.name, f.pathspec.length > 0]).toEqual([f.name, true]);
    expect(formatPathspecs(true).filter((p) => !formatPathspecs(false).includes(p))).toEqual([':(glob)**/CLAUDE.local.md', ':(glob)**/.claude/rules/**/*.local.md']);
    expect(formatSpec('managed')).toBeUndefined();
  });
});
