import fc from 'fast-check';
import type { ErrorObject } from 'ajv';
import { describe, expect, it } from 'vitest';
import type { FormatName, Layer, SourceFile } from '../../src/types.js';
import { parseDoc } from '../../src/parse/parse-doc.js';
import { checkFrontmatter } from '../../src/validate/check-frontmatter.js';
import { FRONTMATTER_VALIDATORS } from '../../src/validate/frontmatter-validators.gen.js';
import { loadFrontmatterSchemas, type FrontmatterSchemas } from '../../src/config/frontmatter-schemas.js';
import { newAjv } from '../../src/config/ajv.js';

function check(format: FormatName, id: string, text: string, layer: Layer = 'repo', schemas: FrontmatterSchemas = loadFrontmatterSchemas()): string[] {
  const file: SourceFile = { id, rel: id, root: 'repo', format, layer, scope: '', bytes: new TextEncoder().encode(text), tracked: true };
  const doc = parseDoc(file).value;
  return checkFrontmatter(file, doc, schemas)
    .map((d) => `${d.code} ${d.severity} ${d.range.start.line}:${d.range.start.col} ${d.message}${d.hint && d.code !== 'RC4004' ? ` | ${d.hint}` : ''}`)
    .sort();
}

const RULE = '.claude/rules/a.md';
const MDC = '.cursor/rules/a.mdc';
const COPILOT = '.github/instructions/a.instructions.md';
const SLUG = "a slug: lowercase letters and digits, words joined by single '-', '_' or '.', at most 64 characters";

describe('checkFrontmatter', () => {
  it.each<[string, FormatName, string, string, string[]]>([
    ['valid claude rule with rulec keys', 'claude-rule', RULE, '---\npaths: ["src/**"]\nid: api-style\nowner: "@team/web"\nexpires: 2027-01-31\n---\nx\n', []],
    ['claude paths string', 'claude-rule', RULE, '---\npaths: "src/**/*.{ts,tsx}"\n---\nx\n', []],
    ['empty paths is allowed', 'claude-rule', RULE, '---\npaths:\n---\nx\n', []],
    ['claude paths number', 'claude-rule', RULE, '---\n\npaths: 42\n---\nx\n',
      ['RC4002 error 3:1 paths must be a glob string or a list of glob strings, not 42']],
    ['claude paths list item points at the item', 'claude-rule', RULE, '---\npaths:\n  - "ok"\n  - 7\n---\nx\n',
      ['RC4002 error 4:5 paths[1] must be a string, not 7']],
    ['typo of paths', 'claude-rule', RULE, '---\npath: src/**\n---\nx\n',
      ['RC4003 warning 2:1 unknown frontmatter key "path": a .claude/rules file reads paths, id, owner, enforce, expires | did you mean "paths"?']],
    ['keys of other agents beside paths: one header for several agents', 'claude-rule', RULE, '---\ndescription: API rules\nglobs: "src/**"\nalwaysApply: false\npaths:\n  - "src/**"\n---\nx\n', []],
    ['globs without paths: the Claude rule is unscoped', 'claude-rule', RULE, '---\ndescription: API rules\nglobs: "src/**"\n---\nx\n',
      ['RC4003 warning 3:1 globs: scopes another agent\'s rules; a .claude/rules file is scoped by paths: and ignores globs: | add paths: with the same globs']],
    ['an empty globs: in a Claude rule scopes nothing', 'claude-rule', RULE, '---\ndescription: Jira\nglobs:\nalwaysApply: false\n---\nx\n', []],
    ['applyTo in a Cursor rule without globs', 'cursor-rule', MDC, '---\napplyTo: "src/**"\n---\nx\n',
      ['RC4003 warning 2:1 applyTo: scopes another agent\'s rules; a Cursor rule is scoped by globs: and ignores applyTo: | add globs: with the same globs']],
    ['a key no agent defines is still unknown', 'cursor-rule', MDC, '---\nglob: "src/**"\n---\nx\n',
      ['RC4003 warning 2:1 unknown frontmatter key "glob": a Cursor rule reads description, globs, alwaysApply, id, owner, enforce, expires | did you mean "globs"?']],
    ['bad rulec values', 'claude-rule', RULE, '---\nid: Bad Id\nowner: ""\nexpires: 2026-13-01\n---\nx\n', [
      `RC4002 error 2:1 id must be ${SLUG}, not "Bad Id"`,
      'RC4002 error 3:1 owner must be a non-empty string (a team, a person or an address), not ""',
      'RC4002 error 4:1 expires must be a date written YYYY-MM-DD, not "2026-13-01"',
    ]],
    ['cursor valid', 'cursor-rule', MDC, '---\ndescription:\nglobs: src/**/*.ts, lib/*.js\nalwaysApply: false\n---\nx\n', []],
    ['cursor alwaysApply string', 'cursor-rule', MDC, '---\nalwaysApply: "true"\nglobs: {a: 1}\n---\nx\n', [
      'RC4002 error 2:1 alwaysApply must be true or false, not "true"',
      'RC4002 error 3:1 globs must be a glob string or a list of glob strings, not a mapping',
    ]],
    ['cursor lenient header keeps key positions', 'cursor-rule', MDC, '---\nglobs: *.ts\nalwaysApply: yes\ndescripton: x\n---\nx\n', [
      'RC4002 error 3:1 alwaysApply must be true or false, not "yes"',
      'RC4003 warning 4:1 unknown frontmatter key "descripton": a Cursor rule reads description, globs, alwaysApply, id, owner, enforce, expires | did you mean "description"?',
    ]],
    ['copilot valid', 'copilot-instructions', COPILOT, '---\napplyTo: "**/*.ts"\nexcludeAgent: "code-review"\nname: TS\ndescription: d\n---\nx\n', []],
    ['copilot excludeAgent as a list', 'copilot-instructions', COPILOT, '---\napplyTo: "**"\nexcludeAgent: [\'coding-agent\']\n---\nx\n',
      ['RC4005 info 3:1 excludeAgent is a YAML list; GitHub documents one value ("code-review" or "coding-agent"), and not every Copilot surface is documented to read a list | excludeAgent: "code-review" is the documented form']],
    ['copilot excludeAgent list with a bad item', 'copilot-instructions', COPILOT, '---\napplyTo: "**"\nexcludeAgent: [reviewer]\n---\nx\n',
      ['RC4002 error 3:16 excludeAgent[0] must be "code-review" or "coding-agent", not "reviewer"', 'RC4005 info 3:1 excludeAgent is a YAML list; GitHub documents one value ("code-review" or "coding-agent"), and not every Copilot surface is documented to read a list | excludeAgent: "code-review" is the documented form']],
    ['copilot list applyTo and bad excludeAgent', 'copilot-instructions', COPILOT, '---\napplyTo: ["a", "b"]\nexcludeAgent: reviewer\napplyto: x\n---\nx\n', [
      'RC4002 error 3:1 excludeAgent must be "code-review" or "coding-agent", not "reviewer"',
      'RC4003 warning 4:1 unknown frontmatter key "applyto": a Copilot instructions file reads applyTo, excludeAgent, name, description, id, owner, enforce, expires | did you mean "applyTo"?',
      'RC4005 info 2:1 applyTo is a YAML list; GitHub documents one string of globs separated by commas, and not every Copilot surface is documented to read a list | applyTo: "a/**/*.ts, b/**" is the documented form',
    ]],
    ['copilot applyTo list of non-strings', 'copilot-instructions', COPILOT, '---\napplyTo: [1, "b"]\n---\nx\n', [
      'RC4002 error 2:11 applyTo[0] must be a string, not 1',
      'RC4005 info 2:1 applyTo is a YAML list; GitHub documents one string of globs separated by commas, and not every Copilot surface is documented to read a list | applyTo: "a/**/*.ts, b/**" is the documented form',
    ]],
    ['AGENTS.md: other keys are left alone, rulec keys checked', 'agents', 'AGENTS.md', '---\ntitle: x\nenforce: true\nid: 3\n---\nx\n', [
      `RC4002 error 4:1 id must be ${SLUG}, not 3`,
      'RC4004 warning 3:1 enforce: true has no effect in a repo-layer file; only managed files can enforce rules',
    ]],
    ['no frontmatter', 'agents', 'AGENTS.md', '# just text\n', []],
    ['invalid YAML is RC2001 elsewhere, nothing here', 'claude-rule', RULE, '---\npaths: [\n---\nx\n', []],
  ])('%s', (_name, format, id, text, expected) => {
    expect(check(format, id, text)).toEqual(expected);
  });

  it('managed files: rulec keys only, enforce allowed', () => {
    expect(check('managed', 'managed:a.md', '---\nenforce: true\nid: sec-1\ntitle: x\n---\nx\n', 'managed')).toEqual([
      'RC4003 warning 4:1 unknown frontmatter key "title": a managed file reads id, owner, enforce, expires',
    ]);
  });
});

describe('the generated frontmatter validators (scripts/gen-validators.mjs)', () => {
  const schemas = loadFrontmatterSchemas();
  const ajv = newAjv({ allErrors: true, strict: true, verbose: true });
  for (const schema of schemas) ajv.addSchema(schema);
  const shape = (errors: readonly ErrorObject[] | null | undefined) => (errors ?? []).map((e) =>
    ({ instancePath: e.instancePath, schemaPath: e.schemaPath, keyword: e.keyword, params: e.params, message: e.message, schema: e.schema, parentSchema: e.parentSchema }));
  const keys = ['paths', 'globs', 'applyTo', 'description', 'alwaysApply', 'excludeAgent', 'name', 'id', 'owner', 'enforce', 'expires', 'path', '__proto__x'];
  const value = fc.oneof(fc.constantFrom(null, true, false, 0, -1, 1.5, '', 'src/**', 'Bad Id', 'api-style', '2027-01-31', '2026-13-01',
    'code-review', 'coding-agent'), fc.string(), fc.array(fc.oneof(fc.string(), fc.integer(), fc.constantFrom('code-review', 'coding-agent')), { maxLength: 3 }));
  const frontmatter = fc.dictionary(fc.oneof(fc.constantFrom(...keys), fc.string({ maxLength: 6 })), value, { maxKeys: 5 });

  it('is made from every shipped frontmatter schema, as it stands', () => {
    expect(FRONTMATTER_VALIDATORS.map((g) => g.id).sort()).toEqual(schemas.map((s) => String(s.$id)).sort());
  });

  it('gives the errors ajv gives when it compiles the schema', () => {
    fc.assert(fc.property(frontmatter, (data) => {
      for (const g of FRONTMATTER_VALIDATORS) {
        const compiled = ajv.getSchema(g.id)!;
        expect(g.validate(data)).toBe(compiled(data));
        expect(shape(g.validate.errors)).toEqual(shape(compiled.errors));
      }
    }), { numRuns: 300 });
  });

  it('is not used for a schema that is not the one it was made from', () => {
    // The same $id, another title: the check compiles the schema it was given.
    const changed = schemas.map((s) => (s.$id === FRONTMATTER_VALIDATORS.find((g) => g.id.includes('claude-rule'))?.id
      ? { ...s, properties: { paths: { title: 'a changed title', anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }, { type: 'null' }] } } }
      : s));
    const text = '---\npaths: 42\n---\nx\n';
    expect(check('claude-rule', RULE, text)).toEqual(['RC4002 error 2:1 paths must be a glob string or a list of glob strings, not 42']);
    expect(check('claude-rule', RULE, text, 'repo', changed)).toEqual(['RC4002 error 2:1 paths must be a changed title, not 42']);
  });
});
