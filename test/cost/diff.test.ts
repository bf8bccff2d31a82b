/**
 * diffBundles is linear in the size of the two bundles: diffing bundles of 2n
 * directories (every one of them changed) costs about twice n, not four
 * times. Views are built in memory (no compile), so only the diff is timed;
 * no wall-clock threshold, only the ratio (stage-timing.ts).
 */
import { describe, expect, it } from 'vitest';
import type { ManifestV1 } from '../../src/bundle/model.js';
import { diffBundles } from '../../src/diff/diff-bundles.js';
import type { BundleView } from '../../src/diff/view.js';
import { renderBlock } from '../../src/render/fence.js';
import { digestOf, sha256Hex } from '../../src/util/hash.js';
import type { TokenCounter } from '../../src/validate/token-count.js';
import { describeDoubling, doubling, MAX_RATIO } from './stage-timing.js';

/** Token counting is not what is timed here (its cost is tested in test/unit/token-count.test.ts): a counter that needs no rank table. */
const counter: TokenCounter = { encoding: 'o200k_base', count: (text) => Math.ceil(text.length / 4) };

function view(n: number, testCommand: string): BundleView {
  const bytes = new Map<string, Uint8Array>();
  const files: ManifestV1['files'] = Object.create(null);
  const add = (id: string, text: string, scope: string): void => {
    const b = Buffer.from(text);
    bytes.set(id, b);
    files[id] = { root: 'repo', path: id, sha256: digestOf(b), size: b.length, layer: scope === '' ? 'repo' : 'path', format: 'agents', scope, activation: 'standing', tracked: true, tokens: 10 };
  };
  add('AGENTS.md', `# Repo\n\n## Testing\n\nRun \`${testCommand}\` before committing.\n`, '');
  for (let i = 0; i < n; i++) add(`pkg/p${i}/AGENTS.md`, `# P${i}\n\n## Style\n\nKeep functions short in p${i}.\n\n## Notes\n\nUse npm in p${i}.\n`, `pkg/p${i}`);
  const block = (id: string): string => renderBlock({ path: id, layer: files[id]?.layer ?? '', sha256: (files[id]?.sha256 ?? '').slice(7) }, Buffer.from(bytes.get(id) ?? []).toString());
  const texts = new Map<string, string>();
  const variants: ManifestV1['variants'] = Object.create(null);
  const index: ManifestV1['index'] = Object.create(null);
  const variant = (dir: string, ids: string[]): void => {
    const text = ids.map(block).join('');
    const id = `v-${sha256Hex(text).slice(0, 16)}`;
    texts.set(id, text);
    variants[id] = { sources: ids.map((s) => ({ id: s, reason: 'x' })), bytes: text.length, tokens: counter.count(text), sha256: digestOf(text), profiles: {} };
    index[dir] = id;
  };
  variant('', ['AGENTS.md']);
  for (let i = 0; i < n; i++) variant(`pkg/p${i}`, ['AGENTS.md', `pkg/p${i}/AGENTS.md`]);
  const manifest = {
    schema: 'https://rulec.dev/schemas/manifest-v3.json', bundle_id: `b-${sha256Hex(testCommand + n).slice(0, 16)}`, revision: { version: '0.1.0', seq: 0 },
    source: { repo: null, commit: null, dirty: false }, compiler: { name: 'rulec', version: '0.1.0' }, policy: { digest: digestOf('p') }, tokenizer: 'o200k_base',
    layers: { local: false, user: false }, files, variants, attachments: {}, index, budgets: { over: [] }, diagnostics: { errors: 0, warnings: 0, infos: 0, codes: {} }, conflicts: [],
  } as ManifestV1;
  const paths = Array.from({ length: n }, (_, i) => [`pkg/p${i}/a.ts`, `pkg/p${i}/src/b.ts`, `pkg/p${i}/src/deep/c.ts`]).flat().sort();
  return { label: testCommand, kind: 'worktree', commit: null, manifest, digest: digestOf(testCommand + n), paths, text: (_k, id) => texts.get(id) ?? '', sourceBytes: (id) => bytes.get(id) ?? null };
}

describe('diffBundles doubles at most linearly', () => {
  it('in the number of changed directories', async () => {
    const d = await doubling((n) => ({ n, a: view(n, 'npm test'), b: view(n, 'pnpm test') }), ({ n, a, b }) => {
      const diff = diffBundles(a, b, { counter });
      expect(diff.groups).toHaveLength(n + 1);
      expect(diff.summary.affected).toBe(3 * n);
    }, { n: 100 });
    console.log(describeDoubling('diffBundles, changed directories', d));
    expect(d.ratio).toBeLessThan(MAX_RATIO);
  });
});
