/**
 * Codex CLI profile — checked against @openai/codex 0.171.0 (captured with the
 * agent oracle; see test/profiles/expected/codex).
 *
 * 1. Global: in $CODEX_HOME (~/.codex) the first of AGENTS.override.md,
 *    AGENTS.md whose text is not blank after a (Unicode White_Space) trim; the
 *    trimmed text is used, a BOM kept. Not counted against the budget.
 * 2. Project root: walk up from cwd to the nearest directory holding one of
 *    `project_root_markers` (default `.git`). rulec's repo root always counts
 *    as marked; a nested `<dir>/.git` in the view makes <dir> the root. With
 *    markers = [] only cwd is searched. Nothing below cwd is ever read.
 * 3. In each directory from the root down to cwd, the first candidate that
 *    exists wins: AGENTS.override.md, AGENTS.md, then
 *    `project_doc_fallback_filenames` in the configured order. An existing
 *    but blank winner still shadows the rest (the directory goes blank).
 * 4. Budget: `project_doc_max_bytes` (default 32768; 0 disables project docs)
 *    is one budget in file bytes, spent root-first. Each file is read up to
 *    the remaining budget, cut raw at a byte (a split UTF-8 sequence decodes
 *    as U+FFFD), and costs its bytes only when its text is not blank. When
 *    the budget reaches 0 later files are not read at all. Joining "\n\n" is free.
 * 5. Text: lossy UTF-8, BOM and CRLF kept, no other transform (no comment or
 *    frontmatter stripping, no imports).
 * 6. Join: global, then "\n\n--- project-doc ---\n\n", then the project files
 *    joined by "\n\n"; sent as a user message
 *    "# AGENTS.md instructions for <cwd>\n\n<INSTRUCTIONS>\n…\n</INSTRUCTIONS>".
 *    Nothing is sent when both parts are empty.
 */
import {
  decodeLossy, dirChain, entryExists, exists, joinRel, loaded, optionNumber, optionStrings, rustTrim, showRepo,
  skipped, tokensOf, finish,
} from './common.js';
import type { AgentProfile, ProfileFile, RepoView } from './types.js';
import { SKIP_BUDGET } from './types.js';

const VERSION = '0.171.0';
export const CODEX_DEFAULT_MAX_BYTES = 32768;
const GLOBAL_NAMES = ['AGENTS.override.md', 'AGENTS.md'];

function globalDoc(view: RepoView, files: ProfileFile[]): string | null {
  for (const name of GLOBAL_NAMES) {
    const raw = view.readHome(`.codex/${name}`);
    if (raw === undefined) continue;
    const text = rustTrim(decodeLossy(raw));
    const path = `~/.codex/${name}`;
    if (text === '') {
      files.push(skipped(path, 'global', raw.length, 'global instructions ($CODEX_HOME)', 'blank: the next global candidate is tried'));
      continue;
    }
    files.push({ ...loaded(path, 'global', raw, text, 'global instructions ($CODEX_HOME)'), keptBytes: raw.length });
    return text;
  }
  return null;
}

/** Step 2: the nearest marked ancestor of cwd. */
function projectRoot(view: RepoView, cwd: string, markers: readonly string[]): string {
  if (markers.length === 0) return cwd;
  const chain = dirChain(cwd).reverse();
  for (const dir of chain) {
    if (dir === '') return '';
    const marked = markers.some((m) => entryExists(view, joinRel(dir, m)));
    if (marked) return dir;
  }
  return '';
}

function candidates(dir: string, fallbacks: readonly string[]): string[] {
  const names = ['AGENTS.override.md', 'AGENTS.md', ...fallbacks.filter((n) => n !== 'AGENTS.md' && n !== 'AGENTS.override.md')];
  return names.map((n) => joinRel(dir, n));
}

function projectDocs(view: RepoView, cwd: string, options: Record<string, unknown>, files: ProfileFile[]): string[] {
  const maxBytes = optionNumber(options, 'project_doc_max_bytes', CODEX_DEFAULT_MAX_BYTES);
  const fallbacks = optionStrings(options, 'fallback_filenames', optionStrings(options, 'project_doc_fallback_filenames', []));
  const root = projectRoot(view, cwd, optionStrings(options, 'project_root_markers', ['.git']));
  const parts: string[] = [];
  let remaining = maxBytes;
  for (const dir of dirChain(cwd, root)) {
    const present = candidates(dir, fallbacks).filter((p) => exists(view, p));
    const [winner, ...shadowed] = present;
    if (winner === undefined) continue;
    const raw = view.read(winner) ?? new Uint8Array();
    const reason = `first of AGENTS.override.md, AGENTS.md${fallbacks.length ? ', ' + fallbacks.join(', ') : ''} in ${dir === '' ? 'the project root' : dir}`;
    if (maxBytes === 0) {
      files.push(skipped(winner, 'project', raw.length, reason, 'project docs disabled (project_doc_max_bytes = 0)'));
    } else if (remaining === 0) {
      files.push(skipped(winner, 'project', raw.length, reason, `${SKIP_BUDGET}: earlier files used all ${maxBytes} bytes of project_doc_max_bytes`));
    } else {
      const kept = raw.subarray(0, Math.min(raw.length, remaining));
      const text = decodeLossy(kept);
      if (rustTrim(text) === '') {
        files.push(skipped(winner, 'project', raw.length, reason, 'blank: contributes nothing (and shadows the other candidates)'));
      } else {
        parts.push(text);
        remaining -= kept.length;
        const f: ProfileFile = { path: winner, origin: 'project', bytes: raw.length, keptBytes: kept.length, tokens: tokensOf(text), reason };
        if (kept.length < raw.length) f.cut = { offset: kept.length, bytesLost: raw.length - kept.length };
        files.push(f);
      }
    }
    for (const p of shadowed) {
      files.push(skipped(p, 'project', view.read(p)?.length ?? 0, `candidate in ${dir === '' ? 'the project root' : dir}`, `shadowed by ${winner}`));
    }
  }
  return parts;
}

export const codexProfile: AgentProfile = {
  name: 'codex',
  agent: 'Codex',
  agentVersion: VERSION,
  summary: 'One file per directory from the git root down to cwd (AGENTS.override.md, AGENTS.md, fallbacks), ' +
    'raw bytes, one 32 KiB budget spent root-first; global ~/.codex/AGENTS.md first.',
  load(view, cwd, options) {
    const files: ProfileFile[] = [];
    const global = globalDoc(view, files);
    const parts = projectDocs(view, cwd, options, files);
    const project = parts.length > 0 ? parts.join('\n\n') : null;
    const body = global !== null && project !== null ? `${global}\n\n--- project-doc ---\n\n${project}` : global ?? project;
    const text = body === null ? '' : `# AGENTS.md instructions for ${showRepo(view, cwd)}\n\n<INSTRUCTIONS>\n${body}\n</INSTRUCTIONS>`;
    const notes: string[] = [];
    const cut = files.find((f) => f.cut);
    if (cut) notes.push(`project_doc_max_bytes ${optionNumber(options, 'project_doc_max_bytes', CODEX_DEFAULT_MAX_BYTES)} cuts ${cut.path} at byte ${cut.cut?.offset}; Codex only logs this`);
    const limit = optionNumber(options, 'project_doc_max_bytes', CODEX_DEFAULT_MAX_BYTES);
    const used = files.filter((f) => f.origin === 'project').reduce((n, f) => n + f.keptBytes, 0);
    return { ...finish(this.name, VERSION, cwd, files, text, notes), budget: { unit: 'bytes', limit, used } };
  },
};
