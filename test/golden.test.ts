/**
 * Golden fixture repos: each case under test/fixtures/ is built and its whole
 * output — bundle files, diagnostics text, explain for chosen paths — compared
 * with expected/. Every emitted manifest is also validated against its schema.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compile } from '../src/compile.js';
import { bundleFileMap } from '../src/emit/write-bundle.js';
import { explainPath, formatExplanation } from '../src/report/explain.js';
import { formatDiagnostics, summaryLine } from '../src/report/text.js';
import { checkSchema, compileSchema } from '../src/validate/schema-check.js';
import { NO_SPAN } from '../src/diagnostics/diagnostic.js';
import { FIXTURES, fixtureCases, materialiseCase, optionsFromArgs, type Materialised } from './helpers/fixture-repo.js';
import { expectTree } from './helpers/golden.js';

const manifestSchema = compileSchema(JSON.parse(readFileSync(join(import.meta.dirname, '..', 'schemas', 'manifest.schema.json'), 'utf8')));
const made: Materialised[] = [];
afterAll(() => { for (const m of made) rmSync(m.dir, { recursive: true, force: true }); });

describe.each(fixtureCases())('fixture %s', (name) => {
  it('builds the expected bundle, diagnostics and explanations', async () => {
    const m = materialiseCase(name);
    made.push(m);
    const result = await compile(optionsFromArgs(m));
    const lines = (file: string) => result.resolution.sources.get(file)?.doc.text.split('\n');
    const actual = new Map<string, string>();
    for (const [rel, text] of bundleFileMap(result)) actual.set(`bundle/${rel}`, text);
    actual.set('diagnostics.txt', `${formatDiagnostics(result.diagnostics, lines)}${summaryLine(result.diagnostics)}\n`);
    (m.spec.explain ?? []).forEach((p, i) => {
      actual.set(`explain/${i + 1}.txt`, formatExplanation(explainPath(result.manifest, p), 'compiled'));
    });
    expect(checkSchema(manifestSchema, result.manifest, 'manifest.json', 'RC4001', () => NO_SPAN)).toEqual([]);
    expectTree(join(FIXTURES, name, 'expected'), actual);
  });
});
