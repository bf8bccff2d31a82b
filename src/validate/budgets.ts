/**
 * Budgets from the policy: tokens per variant and per attachment, bytes per
 * file. Over budget is a diagnostic naming the largest contributors, and the
 * manifest records each overrun.
 */
import type { Attachment, SourceFile, Variant } from '../types.js';
import type { Policy } from '../config/policy.js';
import { diag, type Diagnostic } from '../diagnostics/diagnostic.js';

export interface Overrun {
  kind: 'variant' | 'attachment';
  id: string;
  tokens: number;
  budget: number;
}

export function checkBudgets(variants: readonly Variant[], attachments: readonly Attachment[], files: readonly SourceFile[],
  sourceTokens: ReadonlyMap<string, number>, policy: Policy): { overruns: Overrun[]; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const overruns: Overrun[] = [];
  const { variant_tokens, attachment_tokens, file_bytes } = policy.budgets;
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
  for (const f of files) {
    if (f.bytes.length > file_bytes) diagnostics.push(diag('RC5003', { file: f.id, message: `file is ${f.bytes.length} bytes, over the limit of ${file_bytes}` }));
  }
  return { overruns, diagnostics };
}
