/** The manifest (canonical JSON, digests) and writing the bundle are near-linear in variants, attachments and events. */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildManifest, type ManifestInput } from '../../src/emit/manifest.js';
import { bundleDigest } from '../../src/bundle/model.js';
import { NO_REDACTIONS } from '../../src/diagnostics/redact.js';
import { writeBundle } from '../../src/emit/write-bundle.js';
import { render } from '../../src/render/render.js';
import { tokenCounter } from '../../src/validate/token-count.js';
import { detectConflicts } from '../../src/conflicts/detect.js';
import { POLICY, resolveTree } from '../conflicts/tree.js';
import { describeDoubling, doubling, MAX_RATIO } from './stage-timing.js';
import { monorepo } from './shapes.js';

const scratch = mkdtempSync(join(tmpdir(), 'rulec-cost-emit-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function input(n: number): ManifestInput {
  const m = monorepo(n);
  const res = resolveTree(m.tree, m.paths);
  const counter = tokenCounter('o200k_base');
  const rendered = render(res, counter);
  return {
    resolution: res, variants: rendered.variants, attachments: rendered.attachments, overruns: [], diagnostics: [], git: null,
    revision: '0.1.0', compilerVersion: '0.1.0', policyDigest: `sha256:${'0'.repeat(64)}`, tokenizer: 'o200k_base',
    includeLocal: false, includeUser: false, sourceTokens: rendered.sourceTokens,
    conflicts: detectConflicts(res, POLICY, '2026-01-01', counter).value, profiles: {}, redactions: NO_REDACTIONS,
  };
}

function emit(i: ManifestInput): void {
  const manifest = buildManifest(i);
  bundleDigest(manifest);
  const out = mkdtempSync(join(scratch, 'out-'));
  // The source blobs come from the files read: the resolution holds each one.
  const discovered = { files: [...i.resolution.sources.values()].map((s) => s.file) };
  writeBundle(out, { manifest, variants: i.variants, attachments: i.attachments, discovered });
  rmSync(out, { recursive: true, force: true });
}

describe('manifest and emit double at most linearly', () => {
  it('n directories, n attachments and the duplicate events of their shared text', async () => {
    const d = await doubling(input, emit, { n: 25, reps: 2, maxN: 800 });
    console.log(describeDoubling('emit, monorepo', d));
    expect(d.ratio).toBeLessThan(MAX_RATIO);
  });
});
