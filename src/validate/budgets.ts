/**
 * Budgets from the policy: tokens per variant, per attachment and per layer
 * within a variant; bytes per file. Over budget is a diagnostic naming the
 * largest contributors, and the manifest records each overrun.
 */
import type { Attachment, Layer, SourceFile, StageResult, Variant } from '../types.js';
import type { LayerTokens, Policy } from '../config/policy.js';
import { diag, type Diagnostic } from '../diagnostics/diagnostic.js';

export interface Overrun {
  kind: 'variant' | 'attachment' | 'layer';
  /** The variant or attachment id. */
  id: string;
  /** For kind 'layer': which layer of the variant is over its budget. */
  layer?: Layer;
  tokens: number;
  budget: number;
}

export function checkBudgets(variants: readonly Variant[], attachments: readonly Attachment[], files: readonly SourceFile[],
  sourceTokens: ReadonlyMap<string, number>, policy: Policy): StageResult<Overrun[]> {
  const diagnostics: Diagnostic[] = [];
  const overruns: Overrun[] = [];
  const { variant_tokens, attachment_tokens, file_bytes, layer_tokens } = policy.budgets;
  const top = (ids: string[]): string => ids
    .map((id) => ({ id, t: sourceTokens.get(id) ?? 0 }))
    .sort((a, b) => b.t - a.t || (a.id < b.id ? -1 : 1))
    .slice(0, 3)
    .map((x) => `${x.id} (${x.t})`)
    .join(', ');
  for (const v of variants) {
    if (v.tokens <= variant_tokens) continue;
    overruns.push({ kind: 'variant', id: v.id, tokens: v.tokens, budget: variant_tokens });
    const last = v.sources[v.sources.length - 1]?.id ?? '';
    diagnostics.push(diag('RC5001', { file: last, message: `variant ${v.id} is ${v.tokens} tokens, over the budget of ${variant_tokens}; largest: ${top(v.sources.map((s) => s.id))}` }));
  }
  for (const a of attachments) {
    if (a.tokens <= attachment_tokens) continue;
    overruns.push({ kind: 'attachment', id: a.id, tokens: a.tokens, budget: attachment_tokens });
    diagnostics.push(diag('RC5002', { file: a.sources[0]?.id ?? '', message: `attachment ${a.id} is ${a.tokens} tokens, over the budget of ${attachment_tokens}; largest: ${top(a.sources.map((s) => s.id))}` }));
  }
  const layers = checkLayers(variants, files, sourceTokens, layer_tokens ?? {}, top);
  overruns.push(...layers.value);
  diagnostics.push(...layers.diagnostics);
  for (const f of files) {
    if (f.bytes.length > file_bytes) diagnostics.push(diag('RC5003', { file: f.id, message: `file is ${f.bytes.length} bytes, over the limit of ${file_bytes}` }));
  }
  return { value: overruns, diagnostics };
}

const BUDGETED_LAYERS = ['managed', 'repo', 'path', 'local'] as const;

/**
 * Tokens of each layer's sources within each variant, against budgets.layer_tokens.
 * Every variant over budget is an overrun; variants that share the same sources of
 * that layer (the repo layer usually is the same everywhere) make one diagnostic.
 */
function checkLayers(variants: readonly Variant[], files: readonly SourceFile[], sourceTokens: ReadonlyMap<string, number>,
  budgets: LayerTokens, top: (ids: string[]) => string): StageResult<Overrun[]> {
  const overruns: Overrun[] = [];
  const diagnostics: Diagnostic[] = [];
  if (!BUDGETED_LAYERS.some((l) => budgets[l] !== undefined)) return { value: overruns, diagnostics };
  const layerOf = new Map(files.map((f) => [f.id, f.layer]));
  for (const layer of BUDGETED_LAYERS) {
    const budget = budgets[layer];
    if (budget === undefined) continue;
    const groups = new Map<string, { ids: string[]; tokens: number; variants: string[] }>();
    for (const v of variants) {
      const ids = [...new Set(v.sources.map((s) => s.id).filter((id) => layerOf.get(id) === layer))];
      const tokens = ids.reduce((n, id) => n + (sourceTokens.get(id) ?? 0), 0);
      if (tokens <= budget) continue;
      overruns.push({ kind: 'layer', id: v.id, layer, tokens, budget });
      const key = ids.join('\0');
      const g = groups.get(key);
      if (g) g.variants.push(v.id);
      else groups.set(key, { ids, tokens, variants: [v.id] });
    }
    for (const g of groups.values()) {
      const [first, ...more] = g.variants;
      const largest = [...g.ids].sort((a, b) => (sourceTokens.get(b) ?? 0) - (sourceTokens.get(a) ?? 0) || (a < b ? -1 : 1))[0] ?? '';
      const where = more.length > 0 ? `variant ${first} and ${more.length} more` : `variant ${first}`;
      diagnostics.push(diag('RC5004', { file: largest, message: `${layer} layer is ${g.tokens} tokens in ${where}, over the layer budget of ${budget}; largest: ${top(g.ids)}` }));
    }
  }
  return { value: overruns, diagnostics };
}
