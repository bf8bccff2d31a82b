/**
 * Gemini CLI profile — checked against @google/gemini-cli 0.61.0 (captured
 * with the agent oracle; see test/profiles/expected/gemini).
 *
 * 1. Names: `context.fileName` (string or list), then GEMINI.md, which a
 *    setting adds to but never removes. Every name in every directory loads;
 *    nothing shadows anything.
 * 2. Global: ~/.gemini/<name> for each name, sent in the system instruction
 *    as its own "<loaded_context>" block (no tier tag).
 * 3. Project: every directory from the project root (nearest `.git`; rulec's
 *    repo root) down to cwd. Files below cwd load just-in-time when a tool
 *    touches a path there (not at session start). Files are ordered by
 *    sorting their absolute paths, so `packages/api/GEMINI.md` precedes
 *    `packages/api/src/AGENTS.md` whatever the name order.
 * 4. Text: lossy UTF-8, imports expanded in place (gemini-imports.ts), then
 *    trimmed (which drops a BOM); CRLF and HTML comments stay. A file that
 *    is blank after that is left out. One file reached by several names (a
 *    symbolic link) loads once, under the first name found root-first.
 * 5. Framing, in the first user message: "<loaded_context>\n<project_context>\n",
 *    per file "--- Context from: <abs> ---\n<text>\n--- End of Context from: <abs> ---"
 *    joined by "\n\n", then "\n</project_context>\n</loaded_context>".
 *    rulec shows the global block first, separated by "\n\u241E\n" (the
 *    separator the oracle uses between the two messages).
 * 6. No truncation. Only in trusted folders (rulec assumes trusted).
 */
import { dirChain, decodeLossy, exists, finish, joinRel, optionNumber, optionStrings, pathsWithPrefix, showHome, showRepo, tokensOf } from './common.js';
import { expandGeminiImports, type GeminiImportContext } from './gemini-imports.js';
import type { AgentProfile, ProfileFile, RepoView } from './types.js';
import { SKIP_LAZY } from './types.js';

const VERSION = '0.61.0';
export const GEMINI_BLOCK_SEPARATOR = '\n\u241E\n';

function segment(display: string, text: string): string {
  return `--- Context from: ${display} ---\n${text}\n--- End of Context from: ${display} ---`;
}

function fileText(ctx: GeminiImportContext, raw: Uint8Array, dir: string, key: string): string {
  return expandGeminiImports(ctx, decodeLossy(raw), dir, key).trim();
}

/** Step 3: the chain's files, one per real file (root-most name wins), sorted by absolute path; and the names left out. */
function projectFiles(view: RepoView, cwd: string, names: readonly string[]): { paths: string[]; same: [string, string][] } {
  const found = [...new Set(dirChain(cwd).flatMap((dir) => names.map((n) => joinRel(dir, n))).filter((p) => exists(view, p)))];
  const first = new Map<string, string>();
  const same: [string, string][] = [];
  for (const p of found) {
    const id = view.realPath?.(p) ?? p;
    const kept = first.get(id);
    if (kept === undefined) first.set(id, p);
    else same.push([p, kept]);
  }
  const abs = (p: string): string => showRepo(view, p);
  return { paths: [...first.values()].sort((a, b) => (abs(a) < abs(b) ? -1 : abs(a) > abs(b) ? 1 : 0)), same };
}

export const geminiCliProfile: AgentProfile = {
  name: 'gemini-cli',
  agent: 'Gemini CLI',
  agentVersion: VERSION,
  summary: 'Every context.fileName (default GEMINI.md) from the git root down to cwd, sorted by path, ' +
    'imports expanded in place 5 deep; global ~/.gemini files in the system instruction.',
  load(view, cwd, options) {
    // Configured names are added to the default, never replace it (setGeminiMdFilename merges).
    const names = [...new Set([...optionStrings(options, 'context_file_names', []).map((n) => n.trim()).filter((n) => n !== ''), 'GEMINI.md'])];
    const files: ProfileFile[] = [];
    const ctx: GeminiImportContext = { view, files, maxDepth: optionNumber(options, 'import_max_depth', 5) };
    const globals: string[] = [];
    for (const name of names) {
      const raw = view.readHome(`.gemini/${name}`);
      if (raw === undefined) continue;
      const homeCtx: GeminiImportContext = { ...ctx, maxDepth: 0 };
      const text = fileText(homeCtx, raw, '', `~/.gemini/${name}`);
      files.push({ path: `~/.gemini/${name}`, origin: 'global', bytes: raw.length, keptBytes: raw.length, tokens: tokensOf(text), reason: 'global context file' });
      globals.push(segment(showHome(view, `.gemini/${name}`), text));
    }
    const project: string[] = [];
    const chain = projectFiles(view, cwd, names);
    for (const path of chain.paths) {
      const raw = view.read(path) ?? new Uint8Array();
      const index = files.length;
      const reason = `context file (${names.join(', ')}) on the path to cwd`;
      files.push({ path, origin: 'project', bytes: raw.length, keptBytes: raw.length, tokens: 0, reason });
      const dir = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
      const text = fileText(ctx, raw, dir, path);
      if (text === '') {
        files[index] = { ...files[index]!, keptBytes: 0, skipped: 'blank: left out' };
        continue;
      }
      files[index] = { ...files[index]!, tokens: tokensOf(text) };
      project.push(segment(showRepo(view, path), text));
    }
    for (const [path, kept] of chain.same) {
      files.push({ path, origin: 'project', bytes: view.read(path)?.length ?? 0, keptBytes: 0, tokens: 0, reason: `context file (${names.join(', ')}) on the path to cwd`, skipped: `same file as ${kept} (symbolic link): loaded once` });
    }
    const below = pathsWithPrefix(view, cwd === '' ? '' : `${cwd}/`).filter((p) => names.some((n) => p.endsWith(`/${n}`)) &&
      !dirChain(cwd).some((d) => names.some((n) => joinRel(d, n) === p)));
    for (const p of below) {
      files.push({ path: p, origin: 'project', bytes: view.read(p)?.length ?? 0, keptBytes: 0, tokens: 0, reason: 'context file below cwd', skipped: `${SKIP_LAZY}: loads just-in-time when a tool touches its directory` });
    }
    const blocks: string[] = [];
    if (globals.length > 0) blocks.push(`<loaded_context>\n${globals.join('\n\n')}\n</loaded_context>`);
    if (project.length > 0) blocks.push(`<loaded_context>\n<project_context>\n${project.join('\n\n')}\n</project_context>\n</loaded_context>`);
    return finish(this.name, VERSION, cwd, files, blocks.join(GEMINI_BLOCK_SEPARATOR), []);
  },
};
