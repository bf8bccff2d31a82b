/**
 * SARIF output against the official OASIS SARIF 2.1.0 schema (vendored in
 * test/report/sarif/, see its NOTICE.md): every command's report validates;
 * one result per diagnostic with a rule from the code catalogue; the
 * fingerprint survives lines moving above a finding; a finding about no file
 * sits at the policy file, because GitHub refuses a result without a location.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import AjvModule from 'ajv';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { findCatalogueEntry } from '../../src/diagnostics/catalogue.js';
import { diagnosticsOf } from '../../src/report/reporters/facts.js';
import { renderReport } from '../../src/report/reporters/index.js';
import type { Report } from '../../src/report/reporters/types.js';
import { hostileReports, sampleLint, sampleReports } from './fixtures/reports.js';

type AjvCtor = typeof AjvModule.default;
const Ajv = ((AjvModule as unknown as { default?: AjvCtor }).default ?? AjvModule) as AjvCtor;
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: InstanceType<AjvCtor>) => void;

const SCHEMA_FILE = join(import.meta.dirname, 'sarif', 'sarif-schema-2.1.0.json');

/** The draft-04 schema in ajv's default dialect: `id` → `$id`, no `$schema` (see sarif/NOTICE.md). */
function sarifValidator() {
  const text = readFileSync(SCHEMA_FILE, 'utf8');
  expect(text.length).toBe(112_768);
  expect(text).not.toMatch(/"exclusive(Minimum|Maximum)"\s*:\s*(true|false)/);
  const { id, $schema, ...rest } = JSON.parse(text) as Record<string, unknown>;
  expect($schema).toBe('http://json-schema.org/draft-04/schema#');
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  return ajv.compile({ $id: id as string, ...rest });
}

const validate = sarifValidator();

interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: string;
  message: { text: string };
  locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId: string }; region: Record<string, number> } }[];
  partialFingerprints: Record<string, string>;
}
interface SarifLog { runs: { tool: { driver: { rules: { id: string; shortDescription: { text: string } }[] } }; results: SarifResult[] }[] }

const sarif = (r: Report): SarifLog => JSON.parse(renderReport(r, 'sarif')) as SarifLog;

describe('SARIF against the official schema', () => {
  it('the schema is not vacuous', () => {
    expect(validate({ version: '2.1.0', runs: [] })).toBe(true);
    expect(validate({ version: '2.0.0', runs: [] })).toBe(false);
    expect(validate({ version: '2.1.0', runs: [{ tool: { driver: { name: 'x' } }, results: [{ ruleId: 'x' }] }] })).toBe(false);
    expect(validate({ version: '2.1.0', runs: [{ tool: { driver: { name: 'x' } }, results: [{ message: { text: 'm' }, level: 'fatal' }] }] })).toBe(false);
  });

  it.each([...sampleReports(), ...hostileReports()].map((r, i) => [`${r.command} #${i}`, r] as const))('%s validates', (_name, report) => {
    const log = sarif(report);
    const ok = validate(log);
    expect(ok ? [] : validate.errors).toEqual([]);
  });
});

describe('results and rules', () => {
  it('every result has a location (GitHub refuses an upload otherwise)', () => {
    for (const report of [...sampleReports(), ...hostileReports()]) {
      for (const r of sarif(report).runs[0]!.results) expect(r.locations).toHaveLength(1);
    }
  });

  it('one result per diagnostic, in order, each with its catalogue rule', () => {
    for (const report of sampleReports()) {
      const diagnostics = diagnosticsOf(report).filter((d) => d.file !== '' || report.command === 'lint' || report.command === 'build');
      const run = sarif(report).runs[0]!;
      expect(run.results.map((r) => r.ruleId)).toEqual(diagnostics.map((d) => d.code));
      expect(run.results.map((r) => r.message.text.split('\n')[0])).toEqual(diagnostics.map((d) => d.message));
      for (const r of run.results) {
        const rule = run.tool.driver.rules[r.ruleIndex]!;
        expect(rule.id).toBe(r.ruleId);
        expect(rule.shortDescription.text).toBe(findCatalogueEntry(r.ruleId)?.title);
      }
    }
  });

  it('places repository, managed and file-less findings', () => {
    const results = sarif(sampleLint()).runs[0]!.results;
    const byCode = (c: string) => results.find((r) => r.ruleId === c)!.locations[0]!.physicalLocation;
    expect(byCode('RC3002')).toEqual({ artifactLocation: { uri: '.claude/rules/legacy.md', uriBaseId: '%SRCROOT%' }, region: { startLine: 2, startColumn: 1, endLine: 2, endColumn: 6 } });
    expect(byCode('RC6201').artifactLocation).toEqual({ uri: 'policy/CLAUDE.md', uriBaseId: 'RULEC_MANAGED' });
    expect(byCode('RC3302').artifactLocation).toEqual({ uri: '.rulec/policy.yaml', uriBaseId: '%SRCROOT%' });
    expect(results.find((r) => r.ruleId === 'RC3302')!.message.text).toContain('shown at the policy file');
    expect(results.map((r) => r.level)).toEqual(['warning', 'warning', 'error', 'warning']);
  });

  it('without a policy file, a finding about no file is a configuration notification, not a result', () => {
    const log = sarif({ ...sampleLint(), policy_file: null }) as SarifLog & { runs: { invocations?: { executionSuccessful: boolean; toolConfigurationNotifications: { descriptor: { id: string }; level: string; message: { text: string } }[] }[] }[] };
    expect(log.runs[0]!.results.map((r) => r.ruleId)).toEqual(['RC3002', 'RC3103', 'RC6201']);
    expect(log.runs[0]!.invocations).toEqual([{ executionSuccessful: true, toolConfigurationNotifications: [
      { descriptor: { id: 'RC3302' }, level: 'warning', message: { text: 'override "old" matches no conflict event; remove it' } },
    ] }]);
    expect(validate(log)).toBe(true);
  });

  it('percent-encodes file names into URI references', () => {
    const report = sampleLint([{ code: 'RC3002', severity: 'warning', file: 'docs/a b#1%?.md', range: { start: { line: 1, col: 1 }, end: { line: 1, col: 1 } }, message: 'm' }]);
    expect(sarif(report).runs[0]!.results[0]!.locations[0]!.physicalLocation.artifactLocation.uri).toBe('docs/a%20b%231%25%3F.md');
  });
});

describe('fingerprints', () => {
  const finding = (line: number, text: string, message = 'glob matches no file') => ({
    code: 'RC3002', severity: 'warning' as const, file: 'AGENTS.md', range: { start: { line, col: 1 }, end: { line, col: 4 } }, message,
  });
  const prints = (diags: ReturnType<typeof finding>[], lines: Record<string, string>) =>
    sarif({ ...sampleLint(diags), lines: { 'AGENTS.md': lines } }).runs[0]!.results.map((r) => r.partialFingerprints['rulec/v1']);

  it('stays the same when lines above the finding move', () => {
    const before = prints([finding(3, 'paths: ["legacy/**"]')], { 3: 'paths: ["legacy/**"]' });
    const after = prints([finding(9, 'paths:  ["legacy/**"]')], { 9: 'paths:  ["legacy/**"]' });
    expect(after).toEqual(before);
  });

  it('changes when the flagged line changes, and tells two equal findings apart', () => {
    const a = prints([finding(3, 'x')], { 3: 'paths: ["legacy/**"]' });
    const b = prints([finding(3, 'x')], { 3: 'paths: ["other/**"]' });
    expect(a).not.toEqual(b);
    const twice = prints([finding(3, 'x'), finding(5, 'x')], { 3: 'same line', 5: 'same line' });
    expect(new Set(twice).size).toBe(2);
  });
});
