/** Headline figures of a compile result, for build output (text and JSON). */
import type { CompileResult } from '../../compile.js';

export interface Summary {
  paths: number;
  sources: number;
  layers: Record<string, number>;
  variants: number;
  attachments: number;
  tokens: number;
  largest: { id: string; tokens: number; paths: number } | null;
}

export function summarise(r: CompileResult): Summary {
  const layers: Record<string, number> = {};
  for (const s of r.resolution.sources.values()) layers[s.info.layer] = (layers[s.info.layer] ?? 0) + 1;
  const ordered: Record<string, number> = {};
  for (const l of ['managed', 'repo', 'path', 'local', 'user']) if (layers[l]) ordered[l] = layers[l];
  let largest: Summary['largest'] = null;
  for (const v of r.variants) if (!largest || v.tokens > largest.tokens) largest = { id: v.id, tokens: v.tokens, paths: 0 };
  if (largest) largest.paths = r.resolution.variants.find((v) => v.id === largest?.id)?.pathCount ?? 0;
  let tokens = 0;
  for (const t of r.sourceTokens.values()) tokens += t;
  return { paths: r.discovered.paths.length, sources: r.resolution.sources.size, layers: ordered, variants: r.variants.length, attachments: r.attachments.length, tokens, largest };
}
