/**
 * Qwen Code profile — checked against @qwen-code/qwen-code 0.24.4 (captured
 * with the agent oracle; see test/profiles/expected/qwen). Qwen Code is a
 * Gemini CLI fork with its own names and framing.
 *
 * 1. Global: ~/.qwen/QWEN.md first.
 * 2. Project: for each name in (QWEN.md, AGENTS.md), every directory from the
 *    project root down to cwd — grouped by name, not by directory.
 * 3. Text: lossy UTF-8, trimmed (a BOM goes with the trim); CRLF and HTML
 *    comments stay. (Gemini-style @imports were not exercised here.) One file
 *    reached by two names (a symbolic link) loads once, under the first; a
 *    blank file is left out.
 * 4. Last: ~/.qwen/output-language.md. Qwen writes the default below on its
 *    first start when the file is missing, so a missing file shows the default.
 * 5. Framing, in the system message: per file "--- Context from: <path> ---\n
 *    <text>\n--- End of Context from: <path> ---" joined by "\n\n", where
 *    <path> is relative to cwd (home files too: "../../../home/u/.qwen/…").
 * 6. No truncation.
 */
import { decodeLossy, dirChain, exists, finish, joinRel, loaded, showHome, showRepo } from './common.js';
import type { AgentProfile, ProfileFile, RepoView } from './types.js';

const VERSION = '0.24.4';
const NAMES = ['QWEN.md', 'AGENTS.md'];

/** What Qwen Code 0.24.4 writes to ~/.qwen/output-language.md when it is missing (setting "auto"). */
const DEFAULT_OUTPUT_LANGUAGE = [
  '# Output language preference: auto',
  '<!-- qwen-code:llm-output-language: auto -->',
  '',
  '## Rule',
  "Respond in the same language as the user's input.",
  '',
  '## Exception',
  'If the user **explicitly** requests a response in a specific language (e.g., "please reply in English"), ' +
    "switch to the user's requested language for the remainder of the conversation.",
  '',
  '## Mixed-language input',
  "If the user mixes languages, use the language that best matches the user's main request.",
  '',
  '## Keep technical artifacts unchanged',
  'Do **not** translate or rewrite:',
  '- Code blocks, CLI commands, file paths, stack traces, logs, JSON keys, identifiers',
  '- Exact quoted text from the user (keep quotes verbatim)',
  '',
  '## Tool / system outputs',
  'Raw tool/system outputs may contain fixed-format English. Preserve them verbatim, ' +
    "and if needed, add a short explanation in the user's language below.",
  '',
].join('\n');

/** posix path.relative for two absolute-looking display paths. */
export function relativeDisplay(from: string, to: string): string {
  const a = from.split('/').filter((s) => s !== '');
  const b = to.split('/').filter((s) => s !== '');
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return [...a.slice(i).map(() => '..'), ...b.slice(i)].join('/');
}

function segment(path: string, text: string): string {
  return `--- Context from: ${path} ---\n${text}\n--- End of Context from: ${path} ---`;
}

function homeFile(view: RepoView, cwdAbs: string, rel: string, fallback: string | null, files: ProfileFile[], out: string[]): void {
  const raw = view.readHome(rel) ?? (fallback === null ? undefined : new TextEncoder().encode(fallback));
  if (raw === undefined) return;
  const text = decodeLossy(raw).trim();
  const reason = view.readHome(rel) === undefined ? 'written by Qwen on first start (default)' : 'global file in ~/.qwen';
  files.push(loaded(`~/${rel}`, 'global', raw, text, reason));
  out.push(segment(relativeDisplay(cwdAbs, showHome(view, rel)), text));
}

export const qwenCodeProfile: AgentProfile = {
  name: 'qwen-code',
  agent: 'Qwen Code',
  agentVersion: VERSION,
  summary: 'Global ~/.qwen/QWEN.md, then every QWEN.md and then every AGENTS.md from the root to cwd, trimmed, ' +
    'paths relative to cwd; ~/.qwen/output-language.md last.',
  load(view, cwd) {
    const files: ProfileFile[] = [];
    const parts: string[] = [];
    const cwdAbs = showRepo(view, cwd);
    homeFile(view, cwdAbs, '.qwen/QWEN.md', null, files, parts);
    const seen = new Map<string, string>();
    for (const name of NAMES) {
      for (const dir of dirChain(cwd)) {
        const path = joinRel(dir, name);
        if (!exists(view, path)) continue;
        const id = view.realPath?.(path) ?? path;
        const kept = seen.get(id);
        if (kept !== undefined) {
          files.push({ path, origin: 'project', bytes: view.read(path)?.length ?? 0, keptBytes: 0, tokens: 0, reason: `${name} on the path to cwd`, skipped: `same file as ${kept} (symbolic link): loaded once` });
          continue;
        }
        seen.set(id, path);
        const raw = view.read(path) ?? new Uint8Array();
        const text = decodeLossy(raw).trim();
        if (text === '') {
          files.push({ ...loaded(path, 'project', raw, text, `${name} on the path to cwd`), keptBytes: 0, skipped: 'blank: left out' });
          continue;
        }
        files.push(loaded(path, 'project', raw, text, `${name} on the path to cwd`));
        parts.push(segment(relativeDisplay(cwdAbs, showRepo(view, path)), text));
      }
    }
    homeFile(view, cwdAbs, '.qwen/output-language.md', DEFAULT_OUTPUT_LANGUAGE, files, parts);
    return finish(this.name, VERSION, cwd, files, parts.join('\n\n'), []);
  },
};
