/**
 * The JSON that `rulec lint --format json` and `rulec build --format json`
 * print validates against schemas/report.schema.json, on golden fixtures and
 * bad-input cases; and every schema in schemas/ compiles under ajv 2020 in
 * strict mode (what editors and downstream validators will meet).
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, describe, expect, it } from 'vitest';
import { materialiseCase, type Materialised } from './helpers/fixture-repo.js';
import { stageCase } from './bad-inputs/stage-case.js';
import { runCli } from './helpers/run-cli.js';

type AjvCtor = typeof Ajv2020Module.default;
const Ajv2020 = ((Ajv2020Module as unknown as { default?: AjvCtor }).default ?? Ajv2020Module) as AjvCtor;
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: InstanceType<AjvCtor>) => void;

const ROOT = join(import.meta.dirname, '..');
const SCHEMAS = join(ROOT, 'schemas');

function strictAjv(): InstanceType<AjvCtor> {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  return ajv;
}

const schemaFiles = readdirSync(SCHEMAS).filter((f) => f.endsWith('.schema.json')).sort();
const schemas = schemaFiles.map((f) => JSON.parse(readFileSync(join(SCHEMAS, f), 'utf8')) as Record<string, unknown>);

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

async function cli(args: string[]): Promise<{ status: number | null; json: unknown; stderr: string }> {
  const run = await runCli([...args, '--format', 'json']);
  return { status: run.code, json: JSON.parse(run.stdout) as unknown, stderr: run.stderr };
}

describe('schemas/', () => {
  it('holds the policy, manifest, report and one frontmatter schema per format', () => {
    expect(schemaFiles).toEqual(expect.arrayContaining([
      'policy.schema.json', 'manifest.schema.json', 'report.schema.json', 'frontmatter-rulec.schema.json',
      'frontmatter-claude-rule.schema.json', 'frontmatter-cursor-rule.schema.json', 'frontmatter-copilot-instructions.schema.json',
    ]));
  });

  it.each(schemaFiles)('%s compiles under ajv 2020 strict mode', (file) => {
    const ajv = strictAjv();
    // Frontmatter schemas reference each other by $id; every schema is known, then each is compiled.
    for (const s of schemas) ajv.addSchema(s, undefined, undefined, false);
    const schema = schemas[schemaFiles.indexOf(file)] as Record<string, unknown>;
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(() => ajv.getSchema(String(schema.$id))).not.toThrow();
  });
});

describe('report.schema.json', () => {
  const validate = (() => {
    const ajv = strictAjv();
    return ajv.compile(schemas[schemaFiles.indexOf('report.schema.json')] as Record<string, unknown>);
  })();
  const expectValid = (json: unknown): void => {
    const ok = validate(json);
    expect(ok ? [] : validate.errors).toEqual([]);
  };

  const fixtures: [string, () => Materialised][] = [
    ['fixture claude-rules', () => materialiseCase('claude-rules')],
    ['fixture cursor-rules', () => materialiseCase('cursor-rules')],
    ['fixture managed', () => materialiseCase('managed')],
    ['bad input secrets-each-kind', () => stageCase('secrets-each-kind')],
    ['bad input invalid-utf8', () => stageCase('invalid-utf8')],
    ['bad input policy-layer-budget', () => stageCase('policy-layer-budget')],
    ['bad input symlink-etc-passwd', () => stageCase('symlink-etc-passwd')],
  ];

  it.each(fixtures)('%s: lint, build and build --check print valid reports', async (_name, make) => {
    const m = make();
    made.push(m.dir);
    const common = ['--repo', m.repo, ...m.args];
    const lint = await cli(['lint', ...common]);
    expect(lint.stderr).toBe('');
    expectValid(lint.json);
    const out = join(m.dir, 'out');
    const build = await cli(['build', ...common, '--out', out]);
    expectValid(build.json);
    const report = build.json as { written: string | null; diagnostics: { severity: string }[] };
    expect(build.status).toBe(report.diagnostics.some((d) => d.severity === 'error') ? 1 : 0);
    expect((lint.json as { diagnostics: unknown[] }).diagnostics).toEqual(report.diagnostics);
    if (report.written !== null) {
      const check = await cli(['build', ...common, '--out', out, '--check']);
      expectValid(check.json);
      expect((check.json as { stale: boolean }).stale).toBe(false);
    }
  });

  it('rejects what is not a report (the schema is not vacuous)', () => {
    const diagnostic = { code: 'RC2001', severity: 'error', file: 'AGENTS.md', range: { start: { line: 1, col: 1 }, end: { line: 1, col: 2 } }, message: 'x' };
    expectValid({ diagnostics: [diagnostic] });
    for (const bad of [
      {},
      { diagnostics: [{ ...diagnostic, range: { start: { line: 0, col: 1 }, end: { line: 1, col: 1 } } }] },
      { diagnostics: [{ ...diagnostic, code: 'E1' }] },
      { diagnostics: [{ ...diagnostic, severity: 'fatal' }] },
      { diagnostics: [{ ...diagnostic, extra: true }] },
      { diagnostics: [], bundle_id: 'b-0000000000000000' },
    ]) {
      expect(validate(bad), JSON.stringify(bad)).toBe(false);
    }
  });
});
