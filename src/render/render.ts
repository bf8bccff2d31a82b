/**
 * Render: the frozen text of every variant and attachment.
 *
 * 1. Each source becomes one fenced block (fence.ts) of its body — the canonical
 *    text without frontmatter — named by path, layer and sha256 of its raw bytes.
 * 2. A variant's text is its blocks in resolved order (managed → root → deeper,
 *    local after its directory), so stable text forms the prompt-cache prefix.
 * 3. Bytes, sha256 and tokens are computed here. Blocks are built so that token
 *    boundaries fall between them, so a variant's count is the sum of its
 *    blocks' counts and each unique block is counted once (`blockTexts` lists
 *    them, so a caller can count them ahead, e.g. on another thread).
 */
import type { Attachment, SourceRef, Variant } from '../types.js';
import type { Resolution, ResolutionPlan } from '../resolve/resolve.js';
import type { TokenCounter } from '../validate/token-count.js';
import { sha256Hex } from '../util/hash.js';
import { renderBlock } from './fence.js';

export interface Rendered {
  variants: Variant[];
  attachments: Attachment[];
  /** Tokens of each source's block (first rendering of it), for budgets and explain. */
  sourceTokens: Map<string, number>;
}

function blockText(res: Pick<Resolution, 'sources'>, ref: SourceRef): string {
  const s = res.sources.get(ref.id);
  if (!s) throw new Error(`render: unknown source ${ref.id}`);
  const attrs = { path: ref.id, layer: s.info.layer, sha256: s.sha256, ...(ref.importedBy ? { importedBy: ref.importedBy } : {}) };
  return renderBlock(attrs, s.doc.body);
}

/**
 * Every distinct block text the variants and attachments are made of, in first-use order. A plan
 * (resolve.ts) has them all: what its globs match does not change an attachment's blocks.
 */
export function blockTexts(res: ResolutionPlan): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const list of [...res.variants.map((v) => v.sources), ...res.attachments.map((a) => a.sources)]) {
    for (const ref of list) {
      const key = `${ref.id}\0${ref.importedBy ?? ''}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(blockText(res, ref));
    }
  }
  return out;
}

export function render(res: Resolution, counter: TokenCounter): Rendered {
  const sourceTokens = new Map<string, number>();
  const blocks = new Map<string, { text: string; tokens: number }>();
  const blockOf = (ref: SourceRef): { text: string; tokens: number } => {
    const key = `${ref.id}\0${ref.importedBy ?? ''}`;
    let b = blocks.get(key);
    if (!b) {
      const text = blockText(res, ref);
      b = { text, tokens: counter.count(text) };
      blocks.set(key, b);
    }
    if (!sourceTokens.has(ref.id)) sourceTokens.set(ref.id, b.tokens);
    return b;
  };
  const join = (refs: SourceRef[]): { text: string; bytes: number; tokens: number; sha256: string } => {
    let text = '';
    let tokens = 0;
    for (const ref of refs) {
      const b = blockOf(ref);
      text += b.text;
      tokens += b.tokens;
    }
    return { text, tokens, bytes: Buffer.byteLength(text, 'utf8'), sha256: sha256Hex(text) };
  };
  const variants = res.variants.map((v) => ({ id: v.id, sources: v.sources, ...join(v.sources) }));
  const attachments = res.attachments.map((a) => ({ id: a.id, sources: a.sources, globs: a.globs, ...join(a.sources) }));
  return { variants, attachments, sourceTokens };
}
