import { describe, expect, it } from 'vitest';
import type { Layer, SourceFile, Variant } from '../../src/types.js';
import type { Policy } from '../../src/config/policy.js';
import { checkBudgets } from '../../src/validate/budgets.js';

const file = (id: string, layer: Layer): SourceFile => ({ id, rel: id, root: 'repo', format: 'agents', layer, scope: '', bytes: new Uint8Array(10), tracked: true });
const variant = (id: string, ids: string[], tokens: number): Variant => ({ id, sources: ids.map((s) => ({ id: s, reason: '' })), text: '', bytes: 0, tokens, sha256: '' });
const policy = (layer_tokens: Policy['budgets']['layer_tokens']): Policy => ({
  version: 1, tokenizer: 'o200k_base', formats: { agents: true, claude: true, gemini: true, copilot: true, cursor: true },
  discover: { exclude: [], walk_ignore: [], max_file_bytes: 1e6 }, imports: { max_depth: 4, max_files: 1000 }, managed: { dir: null },
  budgets: { variant_tokens: 1e6, attachment_tokens: 1e6, file_bytes: 1e6, layer_tokens }, severity: {},
});

const files = [file('AGENTS.md', 'repo'), file('CLAUDE.md', 'repo'), file('web/AGENTS.md', 'path'), file('api/AGENTS.md', 'path'), file('managed:sec.md', 'managed')];
const tokens = new Map([['AGENTS.md', 60], ['CLAUDE.md', 50], ['web/AGENTS.md', 30], ['api/AGENTS.md', 5], ['managed:sec.md', 20]]);
const variants = [
  variant('v-root', ['managed:sec.md', 'AGENTS.md', 'CLAUDE.md'], 130),
  variant('v-web', ['managed:sec.md', 'AGENTS.md', 'CLAUDE.md', 'web/AGENTS.md'], 160),
  variant('v-api', ['managed:sec.md', 'AGENTS.md', 'CLAUDE.md', 'api/AGENTS.md'], 135),
];

describe('checkBudgets: layer_tokens', () => {
  it('records every variant over a layer budget and reports each distinct set of sources once', () => {
    const r = checkBudgets(variants, [], files, tokens, policy({ repo: 100, path: 10, managed: 20 }));
    expect(r.value).toEqual([
      { kind: 'layer', id: 'v-root', layer: 'repo', tokens: 110, budget: 100 },
      { kind: 'layer', id: 'v-web', layer: 'repo', tokens: 110, budget: 100 },
      { kind: 'layer', id: 'v-api', layer: 'repo', tokens: 110, budget: 100 },
      { kind: 'layer', id: 'v-web', layer: 'path', tokens: 30, budget: 10 },
    ]);
    expect(r.diagnostics.map((d) => [d.code, d.severity, d.file, d.message])).toEqual([
      ['RC5004', 'warning', 'AGENTS.md', 'repo layer is 110 tokens in variant v-root and 2 more, over the layer budget of 100; largest: AGENTS.md (60), CLAUDE.md (50)'],
      ['RC5004', 'warning', 'web/AGENTS.md', 'path layer is 30 tokens in variant v-web, over the layer budget of 10; largest: web/AGENTS.md (30)'],
    ]);
  });

  it('no layer budgets, no findings', () => {
    expect(checkBudgets(variants, [], files, tokens, policy({}))).toEqual({ value: [], diagnostics: [] });
  });
});
