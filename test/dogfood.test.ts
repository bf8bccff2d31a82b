/**
 * rulec's own instruction files, compiled into bundles/ and committed: CI fails
 * when that bundle no longer matches what the current sources compile to.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compile } from '../src/compile.js';
import { bundleMatches } from '../src/cli/commands/check-bundle.js';
import { openBundle } from '../src/bundle/open-bundle.js';

const ROOT = join(import.meta.dirname, '..');
const OUT = join(ROOT, 'bundles');

describe('dogfood bundle', () => {
  it('bundles/ holds exactly the bundle of this repository (npm run dogfood to refresh)', async () => {
    const result = await compile({ repoDir: ROOT, outDir: OUT });
    expect(result.diagnostics.filter((d) => d.severity !== 'info')).toEqual([]);
    expect(readdirSync(OUT).sort(), 'bundles/ should hold the current bundle and its pointer only').toEqual([result.manifest.bundle_id, 'current']);
    expect(bundleMatches(OUT, result.manifest.bundle_id), 'bundles/ is stale: run npm run dogfood and commit it').toBe(true);
  });

  it('verifies and serves the contributor guide everywhere, and test rules under test/', () => {
    const bundle = openBundle(join(OUT, readdirSync(OUT).find((d) => d.startsWith('b-')) as string));
    expect(bundle.contextFor('src/compile.ts').sources.map((s) => s.id)).toEqual(['AGENTS.md']);
    expect(bundle.attachmentsFor('test/cli.test.ts').map((a) => a.sources[0]?.id)).toEqual(['.claude/rules/tests.md']);
    expect(bundle.attachmentsFor('src/compile.ts')).toEqual([]);
  });
});
