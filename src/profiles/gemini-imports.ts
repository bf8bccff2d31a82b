/**
 * Gemini CLI's memory import processor, as observed in 0.61.0 (Qwen Code
 * inherits it):
 * 1. `@<path>` tokens (`@./x`, `@x`, `@/abs`; no `~`) outside fenced code and
 *    inline code spans are replaced in place; text around them stays.
 * 2. A found file becomes "<!-- Imported from: P -->\n<its processed text>\n
 *    <!-- End of import from: P -->" (P as written), processed recursively
 *    relative to its own directory.
 * 3. Depth: files at depth `max_depth` (5) keep their @tokens unprocessed.
 * 4. A file already on the import chain → "<!-- File already processed: P -->";
 *    a path leaving the project root → "<!-- Import failed: P - Path traversal
 *    attempt -->"; a missing file → "<!-- Import failed: P - ENOENT: no such
 *    file or directory, access '<abs>' -->".
 */
import { maskInline, scanLines } from '../parse/markdown-scan.js';
import { normalisePosix } from './claude-imports.js';
import { decodeLossy, showRepo, tokensOf } from './common.js';
import type { ProfileFile, RepoView } from './types.js';

const TOKEN = /@([./]?[^\s]+\.[^\s]+)/g;

/** Offsets [start, end) of import tokens in `text`, skipping code. */
function tokenRanges(text: string): { start: number; end: number; target: string }[] {
  const out: { start: number; end: number; target: string }[] = [];
  let offset = 0;
  let commentOpen = false;
  for (const line of scanLines(text)) {
    if (!line.inFence) {
      // Only code spans are masked for Gemini; comments are re-read from the original line.
      const m = maskInline(line.text.replace(/<!--|-->/g, (s) => ' '.repeat(s.length)), commentOpen);
      commentOpen = m.commentOpen;
      for (const hit of m.masked.matchAll(TOKEN)) {
        const start = offset + (hit.index ?? 0);
        const target = line.text.slice((hit.index ?? 0) + 1, (hit.index ?? 0) + hit[0].length);
        out.push({ start, end: start + hit[0].length, target });
      }
    }
    offset += line.text.length + 1;
  }
  return out;
}

export interface GeminiImportContext {
  view: RepoView;
  files: ProfileFile[];
  maxDepth: number;
}

/** Expand the imports of `text`, a file in repo directory `dir`. */
export function expandGeminiImports(ctx: GeminiImportContext, text: string, dir: string, chain: readonly string[], depth: number): string {
  if (depth >= ctx.maxDepth) return text;
  let out = '';
  let last = 0;
  for (const t of tokenRanges(text)) {
    out += text.slice(last, t.start);
    last = t.end;
    const rel = t.target.startsWith('/') ? null : normalisePosix(dir === '' ? t.target : `${dir}/${t.target}`);
    const why = `imported by ${chain[chain.length - 1]} (@${t.target})`;
    if (rel === null || rel.startsWith('../') || rel === '..') {
      out += `<!-- Import failed: ${t.target} - Path traversal attempt -->`;
      ctx.files.push({ path: t.target, origin: 'import', bytes: 0, keptBytes: 0, tokens: 0, reason: why, skipped: 'outside the project root (path traversal)' });
      continue;
    }
    if (chain.includes(rel)) {
      out += `<!-- File already processed: ${t.target} -->`;
      ctx.files.push({ path: rel, origin: 'import', bytes: 0, keptBytes: 0, tokens: 0, reason: why, skipped: 'already on the import chain (cycle)' });
      continue;
    }
    const raw = ctx.view.read(rel);
    if (raw === undefined) {
      out += `<!-- Import failed: ${t.target} - ENOENT: no such file or directory, access '${showRepo(ctx.view, rel)}' -->`;
      ctx.files.push({ path: rel, origin: 'import', bytes: 0, keptBytes: 0, tokens: 0, reason: why, skipped: 'import target not found' });
      continue;
    }
    const own = decodeLossy(raw);
    ctx.files.push({ path: rel, origin: 'import', bytes: raw.length, keptBytes: raw.length, tokens: tokensOf(own), reason: why });
    const sub = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '';
    const inner = expandGeminiImports(ctx, own, sub, [...chain, rel], depth + 1);
    out += `<!-- Imported from: ${t.target} -->\n${inner}\n<!-- End of import from: ${t.target} -->`;
  }
  return out + text.slice(last);
}
