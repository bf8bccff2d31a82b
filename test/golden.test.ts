/**
 * Golden fixture repos: each case under test/fixtures/ is built and its whole
 * output — bundle files, diagnostics text, explain for chosen paths — compared
 * with expected/. Every emitted manifest also parses back through parseManifest
 * (schema-validated, bundle id rechecked).
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compile } from '../src/compile.js';
import { bundleFileMap } from '../src/emit/write-bundle.js';
import { explainPath, formatExplanation } from '../src/report/explain.js';
import { formatDiagnostics, summaryLine } from '../src/report/text.js';
import { canonicalJson } from '../src/util/canonical-json.js';
import { filesOf } from './helpers/bundle-manifest.js';
import { parseManifest } from '../src/bundle/parse-manifest.js';
import { FIXTURES, fixtureCases, materialiseCase, optionsFromArgs, type Materialised } from './helpers/fixture-repo.js';
import { expectTree } from './helpers/golden.js';

const made: Materialised[] = [];

/** A source blob as golden text: its UTF-8 text, or base64 when its bytes are not valid UTF-8 (kept exact either way). */
function goldenText(content: string | Uint8Array): string {
  if (typeof content === 'string') return content;
  const text = Buffer.from(content).toString('utf8');
  return Buffer.from(text, 'utf8').equals(content) ? text : `base64:${Buffer.from(content).toString('base64')}\n`;
}
afterAll(() => { for (const m of made) rmSync(m.dir, { recursive: true, force: true }); });

describe.each(fixtureCases())('fixture %s', (name) => {
  it('builds the expected bundle, diagnostics and explanations', async () => {
    const m = materialiseCase(name);
    made.push(m);
    const result = await compile(optionsFromArgs(m));
    const lines = (file: string) => result.resolution.sources.get(file)?.doc.text.split('\n');
    const actual = new Map<string, string>();
    for (const [rel, content] of bundleFileMap(result)) actual.set(`bundle/${rel}`, goldenText(content));
    actual.set('diagnostics.txt', `${formatDiagnostics(result.diagnostics, lines)}${summaryLine(result.diagnostics)}\n`);
    (m.spec.explain ?? []).forEach((p, i) => {
      actual.set(`explain/${i + 1}.txt`, formatExplanation(explainPath(result.manifest, p), 'compiled'));
    });
    // The typed manifest and the schema agree: what compile builds parses back (schema-validated) to the same value.
    expect(parseManifest(filesOf(result.manifest))).toEqual({ ok: true, manifest: JSON.parse(canonicalJson(result.manifest)) });
    expectTree(join(FIXTURES, name, 'expected'), actual);
  });
});
