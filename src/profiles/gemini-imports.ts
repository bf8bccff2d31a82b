/**
 * Gemini CLI's memory import processor, as observed in 0.61.0 (fixtures i,
 * o, s, t; Qwen Code inherits it):
 * 1. A token is `@` at the start of the text or after a space, tab, CR or
 *    LF, up to the next of those; it counts when it starts with `.`, `/` or
 *    an ASCII letter (`@param` does, `@~/x`, `name@x` and `(@x)` do not).
 *    Matching resumes after the character that ended the token.
 * 2. A token inside a backtick run … same-length run (anywhere in the file,
 *    across lines: ``` fences too, ~~~ fences and indented code not) stays.
 * 3. `file:`/`http(s):` URLs and paths leaving the project root (after
 *    following symbolic links) → "<!-- Import failed: P - Path traversal attempt -->".
 * 4. A path already imported on the way to this file → "<!-- File already
 *    processed: P -->". The top-level file itself is not on that list.
 * 5. A missing path → "<!-- Import failed: P - ENOENT: no such file or
 *    directory, access '<abs>' -->" (ENOTDIR under a file, EISDIR for a
 *    directory).
 * 6. Otherwise "<!-- Imported from: P -->\n<its processed text>\n<!-- End of
 *    import from: P -->" (P as written), processed relative to its own
 *    directory; files at depth `max_depth` (5) keep their tokens.
 */
import { normalisePosix } from './claude-imports.js';
import { decodeLossy, entryExists, exists, showRepo, tokensOf } from './common.js';
import type { ProfileFile, RepoView } from './types.js';

interface Token { start: number; end: number; path: string }

const WS = new Set([' ', '\t', '\n', '\r']);

/** Step 1. */
function findTokens(text: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    i = text.indexOf('@', i);
    if (i < 0) break;
    if (i > 0 && !WS.has(text[i - 1]!)) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < text.length && !WS.has(text[j]!)) j++;
    const path = text.slice(i + 1, j);
    if (path !== '' && /^[./A-Za-z]/.test(path)) out.push({ start: i, end: j, path });
    i = j + 1;
  }
  return out;
}

/** Step 2: [start, end) of every backtick run and its closing run. */
function codeRegions(text: string): [number, number][] {
  return [...text.matchAll(/(`+)([\s\S]*?)\1/g)].map((m) => [m.index ?? 0, (m.index ?? 0) + m[0].length]);
}

export interface GeminiImportContext {
  view: RepoView;
  files: ProfileFile[];
  maxDepth: number;
}

type Outcome = { kind: 'text'; text: string } | { kind: 'file'; rel: string; raw: Uint8Array };

/** Steps 3–5 for one token in a file of repo directory `dir`. */
function locate(ctx: GeminiImportContext, path: string, dir: string, processed: ReadonlySet<string>): Outcome {
  const fail = (why: string): Outcome => ({ kind: 'text', text: `<!-- Import failed: ${path} - ${why} -->` });
  if (/^(file|https?):\/\//.test(path)) return fail('Path traversal attempt');
  const root = `${ctx.view.rootDisplay}/`;
  const joined = path.startsWith('/') ? (path.startsWith(root) ? path.slice(root.length) : null) : `${dir === '' ? '' : `${dir}/`}${path}`;
  const rel = joined === null ? null : normalisePosix(joined);
  if (rel === null || rel === '..' || rel.startsWith('../')) return fail('Path traversal attempt');
  const raw = ctx.view.read(rel);
  // A link that leads out of the repository: readable, but with no real path inside it.
  if (raw !== undefined && ctx.view.realPath !== undefined && ctx.view.realPath(rel) === undefined) return fail('Path traversal attempt');
  if (processed.has(rel)) return { kind: 'text', text: `<!-- File already processed: ${path} -->` };
  const abs = showRepo(ctx.view, rel);
  if (raw !== undefined) return { kind: 'file', rel, raw };
  if (entryExists(ctx.view, rel)) return fail('EISDIR: illegal operation on a directory, read');
  const parts = rel.split('/');
  const underFile = parts.slice(1).some((_, i) => exists(ctx.view, parts.slice(0, i + 1).join('/')));
  return fail(`${underFile ? 'ENOTDIR: not a directory' : 'ENOENT: no such file or directory'}, access '${abs}'`);
}

/** Expand the imports of `text`, a file in repo directory `dir`, `depth` imports deep. */
export function expandGeminiImports(ctx: GeminiImportContext, text: string, dir: string, importer: string, depth = 0,
  processed: ReadonlySet<string> = new Set()): string {
  if (depth >= ctx.maxDepth) return text;
  const regions = codeRegions(text);
  let out = '';
  let last = 0;
  for (const t of findTokens(text)) {
    out += text.slice(last, t.start);
    last = t.end;
    if (regions.some(([s, e]) => t.start >= s && t.start < e)) {
      out += `@${t.path}`;
      continue;
    }
    const why = `imported by ${importer} (@${t.path})`;
    const found = locate(ctx, t.path, dir, processed);
    if (found.kind === 'text') {
      out += found.text;
      ctx.files.push({ path: t.path, origin: 'import', bytes: 0, keptBytes: 0, tokens: 0, reason: why, skipped: found.text.slice(5, -4) });
      continue;
    }
    const own = decodeLossy(found.raw);
    ctx.files.push({ path: found.rel, origin: 'import', bytes: found.raw.length, keptBytes: found.raw.length, tokens: tokensOf(own), reason: why, importedBy: importer });
    const sub = found.rel.includes('/') ? found.rel.slice(0, found.rel.lastIndexOf('/')) : '';
    const inner = expandGeminiImports(ctx, own, sub, found.rel, depth + 1, new Set([...processed, found.rel]));
    out += `<!-- Imported from: ${t.path} -->\n${inner}\n<!-- End of import from: ${t.path} -->`;
  }
  return out + text.slice(last);
}
