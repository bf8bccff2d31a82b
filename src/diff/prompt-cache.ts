/**
 * The prompt-cache figure of one variant change (pure): how many leading
 * tokens of the old frozen text are still the leading tokens of the new one,
 * i.e. the prefix a provider's prompt cache still hits.
 *
 * 1. Split both texts into provenance blocks (fence.ts). Blocks end at token
 *    boundaries, so whole identical leading blocks keep exactly the sum of
 *    their counts.
 * 2. Inside the first block that differs, keep the common prefix up to the
 *    last line break that is followed, in both texts, by a letter or digit:
 *    no tokenizer piece spans such a break, so the pieces before it are the
 *    same in both texts and their count is exact.
 * Only the kept part is counted (the totals come from the manifests): a change
 * near the top of a context costs no tokenizing at all.
 */
import { parseBlocks, renderBlock } from '../render/fence.js';
import type { TokenCounter } from '../validate/token-count.js';
import type { VariantCache } from './path-group.js';

interface Block {
  text: string;
  path: string | null;
}

export function variantCache(oldText: string, newText: string, counter: TokenCounter, totals?: { old: number; new: number }): VariantCache {
  const a = blocksOf(oldText);
  const b = blocksOf(newText);
  const oldTokens = totals?.old ?? sum(a, counter);
  const newTokens = totals?.new ?? sum(b, counter);
  let kept = 0;
  let k = 0;
  while (k < a.length && k < b.length && (a[k] as Block).text === (b[k] as Block).text) kept += counter.count((a[k++] as Block).text);
  const whole = newText.startsWith(oldText);
  if (!whole && k < a.length && k < b.length) {
    const prefix = safePrefix((a[k] as Block).text, (b[k] as Block).text);
    if (prefix !== '') kept += counter.count(prefix);
  }
  return {
    old_tokens: oldTokens,
    new_tokens: newTokens,
    kept_tokens: whole ? oldTokens : Math.min(kept, oldTokens),
    whole_prefix: whole,
    first_change: whole ? null : (b[k] ?? a[k])?.path ?? null,
  };
}

/** The provenance blocks of a frozen text; a text that is not one (never from a bundle) is one block. */
function blocksOf(text: string): Block[] {
  if (text === '') return [];
  const parsed = parseBlocks(text);
  if (!parsed) return [{ text, path: null }];
  return parsed.map((p) => ({ text: renderBlock(p, p.body), path: p.path }));
}

function sum(blocks: readonly Block[], counter: TokenCounter): number {
  return blocks.reduce((n, x) => n + counter.count(x.text), 0);
}

const WORD_START = /[\p{L}\p{N}]/u;

/** The longest common prefix of `x` and `y` that ends right after a '\n' followed (in both) by a letter or digit. */
export function safePrefix(x: string, y: string): string {
  let c = 0;
  const max = Math.min(x.length, y.length);
  while (c < max && x.charCodeAt(c) === y.charCodeAt(c)) c++;
  for (let p = c - 1; p > 0; p--) {
    if (x[p - 1] === '\n' && WORD_START.test(x[p] as string)) return x.slice(0, p);
  }
  return '';
}
