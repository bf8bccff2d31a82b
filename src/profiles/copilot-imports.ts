/**
 * Copilot CLI's `@path` imports, as observed in 1.0.102 (fixtures i, o, p,
 * s, t). Only AGENTS.md and CLAUDE.md are expanded (and, recursively, what
 * they import); GEMINI.md, copilot-instructions.md, .github/instructions and
 * .claude/rules keep their `@` text.
 * 1. Lines inside ``` or ~~~ fences and inline code spans closed on the same
 *    line are skipped; HTML comments and indented code are not.
 * 2. A token is `@` not preceded by a character of an e-mail name
 *    (`[A-Za-z0-9._%+-]`), then the characters up to whitespace or one of
 *    `` ` ' " < > ``; trailing `. , ; : ! ? ) ] }` are not part of the path.
 *    Matching resumes after the token, so an `@` inside it never starts one.
 * 3. Targets starting with `~` or `/`, ending with `/`, or leaving the
 *    repository stay text; so do missing files and directories. Others are
 *    read relative to the importing file.
 * 4. Right after the path comes "\n\n<imported_custom_instruction source=\"<abs>\">\n"
 *    + the imported text (expanded the same way) + "</imported_custom_instruction>".
 *    A file already imported while expanding the same top-level file (or that
 *    file itself) becomes `<imported_custom_instruction source="<abs>" skipped="already-loaded" />`.
 */
import { scanLines } from '../parse/markdown-scan.js';
import { normalisePosix } from './claude-imports.js';
import { decodeLossy, joinRel, showRepo, stripBom, tokensOf } from './common.js';
import type { ProfileFile, RepoView } from './types.js';

/** Step 2. The lookbehind keeps e-mail addresses (`name@host`) out. */
const TOKEN = /(?<![A-Za-z0-9._%+-])@([^\s`'"<>]+)/g;
const TRAILING = /[.,;:!?)\]}]+$/;

export interface CopilotImportState {
  view: RepoView;
  files: ProfileFile[];
  /** Identities (real paths) already expanded under the current top-level file. */
  loaded: Set<string>;
}

/** Blank out inline code spans that close on their own line (step 1); nothing else is masked. */
function maskSpans(line: string): string {
  return line.replace(/(`+)(?:(?!\1)[\s\S])*?\1/g, (m) => ' '.repeat(m.length));
}

const identity = (view: RepoView, rel: string): string => view.realPath?.(rel) ?? rel;

/** Expand the imports of `text`, a file in repo directory `dir` imported by or being `importer`. */
export function expandCopilotImports(s: CopilotImportState, text: string, dir: string, importer: string): string {
  let out = '';
  let offset = 0;
  for (const line of scanLines(text)) {
    let cursor = 0;
    if (!line.inFence) {
      for (const hit of maskSpans(line.text).matchAll(TOKEN)) {
        const raw = hit[1] ?? '';
        const target = raw.replace(TRAILING, '');
        const end = (hit.index ?? 0) + 1 + target.length;
        const element = target === '' ? '' : importElement(s, target, dir, importer);
        if (element === '') continue;
        out += line.text.slice(cursor, end) + element;
        cursor = end;
      }
    }
    const last = offset + line.text.length >= text.length;
    out += line.text.slice(cursor) + (last ? '' : '\n');
    offset += line.text.length + 1;
  }
  return out;
}

/** Step 3–4 for one token: the element to insert after it, or '' to leave the text alone. */
function importElement(s: CopilotImportState, target: string, dir: string, importer: string): string {
  if (target.startsWith('~') || target.startsWith('/') || target.endsWith('/')) return '';
  const rel = normalisePosix(joinRel(dir, target));
  if (rel === '' || rel === '..' || rel.startsWith('../')) return '';
  const raw = s.view.read(rel);
  if (raw === undefined) return '';
  const source = showRepo(s.view, rel);
  const id = identity(s.view, rel);
  if (s.loaded.has(id)) return `\n\n<imported_custom_instruction source="${source}" skipped="already-loaded" />`;
  s.loaded.add(id);
  const own = stripBom(decodeLossy(raw));
  const index = s.files.length;
  s.files.push({ path: rel, origin: 'import', bytes: raw.length, keptBytes: raw.length, tokens: 0, reason: `imported by ${importer} (@${target})`, importedBy: importer });
  const sub = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '';
  const inner = expandCopilotImports(s, own, sub, rel);
  s.files[index] = { ...s.files[index]!, tokens: tokensOf(own) };
  return `\n\n<imported_custom_instruction source="${source}">\n${inner}</imported_custom_instruction>`;
}
