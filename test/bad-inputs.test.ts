/**
 * Bad-input corpus: test/bad-inputs/<case>/{repo/**, managed/**, expected.json},
 * plus files made at test time by bad-inputs/generated.ts (fake secrets, a 20 MB
 * file, invisible Unicode, invalid UTF-8, symlinks). Each case is compiled as a
 * git repository and must resolve (never throw) with exactly the expected
 * codes at the expected positions and the expected exit status. A handful also
 * run through the CLI (in-process, helpers/run-cli.ts): exit 1, no stack trace,
 * nothing written. Each case's repository is built once and shared read-only
 * (stage-case.ts). `UPDATE_GOLDEN=1` rewrites expected.json for review.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compile } from '../src/compile.js';
import { findCatalogueEntry } from '../src/diagnostics/catalogue.js';
import { hasErrors, type Diagnostic } from '../src/diagnostics/diagnostic.js';
import { GENERATED } from './bad-inputs/generated.js';
import { badInputCases, BAD_INPUTS, sharedBadInput } from './bad-inputs/stage-case.js';
import type { Materialised } from './helpers/fixture-repo.js';
import { runCli } from './helpers/run-cli.js';

const ROOT = BAD_INPUTS;
const UPDATE = process.env.UPDATE_GOLDEN === '1';

interface Found { code: string; file: string; line: number; col: number }
interface Expected { description: string; exit: 0 | 1; diagnostics: Found[] }

const CASES = badInputCases();

/** Cases also run through `rulec build`; none depends on checkFrontmatter being wired into compile. */
const CLI_CASES = [
  'yaml-unclosed-flow-sequence', 'yaml-alias-bomb', 'invalid-utf8', 'nul-bytes', 'huge-file-20mb',
  'symlink-etc-passwd', 'import-outside-repo', 'secrets-each-kind', 'glob-open-bracket', 'binary-rule-file',
];

/** Bundles go here: the case repositories are shared and read-only. */
const scratch = mkdtempSync(join(tmpdir(), 'rulec-bad-out-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** What compile() reports for a case: every stage's diagnostics, severities as configured. */
async function diagnose(m: Materialised): Promise<Diagnostic[]> {
  const result = await compile({ repoDir: m.repo, outDir: join(scratch, 'out'), ...(m.managed ? { managedDir: m.managed } : {}) });
  return result.diagnostics;
}

const project = (list: readonly Diagnostic[]): Found[] =>
  list.map((d) => ({ code: d.code, file: d.file, line: d.range.start.line, col: d.range.start.col }));

function readExpected(name: string): Expected {
  return JSON.parse(readFileSync(join(ROOT, name, 'expected.json'), 'utf8')) as Expected;
}

describe('bad inputs: compile()', () => {
  it('has a corpus of at least 40 cases', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(40);
    for (const name of Object.keys(GENERATED)) expect(CASES, `generated.ts names a case without expected.json: ${name}`).toContain(name);
  });

  it.each(CASES)('%s', async (name) => {
    const m = sharedBadInput(name);
    const diagnostics = await diagnose(m);
    const actual = { exit: hasErrors(diagnostics) ? 1 : 0, diagnostics: project(diagnostics) };
    if (UPDATE) {
      const prev = readExpected(name);
      writeFileSync(join(ROOT, name, 'expected.json'), `${JSON.stringify({ description: prev.description, ...actual }, null, 2)}\n`);
    }
    const expected = readExpected(name);
    expect(actual).toEqual({ exit: expected.exit, diagnostics: expected.diagnostics });
    // Every finding is a catalogued code at a real position, and names a file of this build (or none).
    const files = new Set(diagnostics.map((d) => d.file));
    for (const d of diagnostics) {
      expect(findCatalogueEntry(d.code), d.code).toBeDefined();
      expect(d.range.start.line).toBeGreaterThanOrEqual(1);
      expect(d.range.start.col).toBeGreaterThanOrEqual(1);
      expect(d.message.length).toBeGreaterThan(0);
    }
    expect([...files].every((f) => f === '' || !f.startsWith('/'))).toBe(true);
  });
});

describe('bad inputs: the CLI', () => {
  it.each(CLI_CASES)('%s: exit 1, coded diagnostics, no stack trace, nothing written', async (name) => {
    const m = sharedBadInput(name);
    const out = join(scratch, `cli-${name}`);
    const run = await runCli(['build', '--repo', m.repo, '--out', out, '--format', 'json']);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stderr).not.toMatch(/internal error|RC9001/);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as { written: string | null; diagnostics: Diagnostic[] };
    expect(report.written).toBeNull();
    expect(project(report.diagnostics)).toEqual(readExpected(name).diagnostics);
    expect(existsSync(out) ? readdirSync(out) : []).toEqual([]);
  });
});
