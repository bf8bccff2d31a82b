/**
 * What one profile run means for the build: findings about single files,
 * each at most once per run (a file an agent meets twice — directly and
 * through an import — is still one file).
 *
 * 1. RC5501 a budget drops the file, RC5502 a budget cuts it.
 * 2. RC5503 a canonical source the agent never loads: skipped for a reason
 *    that is neither laziness nor blankness, and its bytes reach the agent by
 *    no other name (a symlink, an import of it).
 *    When a file the agent does load tells it to read such a file ("Before
 *    changing a package, read its `AGENTS.md`"), the agent reads it on
 *    demand: RC5508 (info) instead — the maintainers already bridged the gap.
 * 3. RC5507 (info) a canonical source the agent loads only after the user
 *    approves it (Claude Code's external imports and symlinked rules outside
 *    cwd: a non-interactive run drops them).
 * 4. RC5504 (info) a project file the agent loads whose bytes are no
 *    canonical source's.
 * 5. RC5506 the agent sends the same text twice (Copilot: AGENTS.md directly
 *    and through CLAUDE.md's `@AGENTS.md`; Codex: AGENTS.md and the file it
 *    links to in another directory). Reported at the first copy.
 */
import type { AgentProfile, ProfileFile, ProfileResult, RepoView } from './types.js';
import { SKIP_BUDGET, SKIP_LAZY } from './types.js';

export interface Finding { code: string; file: string; profile: AgentProfile; paths: number; detail: string }

/** The codes a profile run finds (RC5505, an unknown profile name, is the evaluation's own). */
export const RUN_FINDING_CODES: readonly string[] = ['RC5501', 'RC5502', 'RC5503', 'RC5504', 'RC5506', 'RC5507', 'RC5508'];

/** 31904 → "31,904" without Intl, so messages never depend on the host's locale data. */
export const fmt = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** Skip reasons (claude-code.ts) that mean "loads once the user approves". */
const NEEDS_APPROVAL = /needs approval/;

/** "the root AGENTS.md uses 31,904 of 32,768 bytes" — who spent the budget before `file`. */
function budgetDetail(result: ProfileResult, file: ProfileFile): string {
  if (!result.budget) return file.skipped ?? 'the agent\'s budget is exhausted';
  const before = result.files.slice(0, result.files.indexOf(file)).filter((f) => f.origin === 'project' && f.keptBytes > 0 && !f.skipped);
  const used = before.reduce((n, f) => n + f.keptBytes, 0);
  const who = before.length === 0 ? 'earlier files' : before.length === 1 ? (before[0]!.path.includes('/') ? before[0]!.path : `the root ${before[0]!.path}`)
    : `${before[0]!.path} and ${before.length - 1} more`;
  const verb = before.length === 1 ? 'uses' : 'use';
  return `${who} ${verb} ${fmt(used)} of ${fmt(result.budget.limit)} ${result.budget.unit}`;
}

/** A view of `b`'s bytes, not a copy. */
const bufferOf = (b: Uint8Array): Buffer => Buffer.from(b.buffer, b.byteOffset, b.byteLength);
/** Per file bytes, a string equal exactly when the bytes are: profiles run per session class, a file is keyed once. */
const keys = new WeakMap<Uint8Array, string>();
const bytesKey = (b: Uint8Array): string => {
  let k = keys.get(b);
  if (k === undefined) keys.set(b, (k = bufferOf(b).toString('latin1')));
  return k;
};
const isBlank = (b: Uint8Array): boolean => /^[\s\uFEFF]*$/.test(bufferOf(b).toString('utf8'));

/** How a loaded file reached the agent, for RC5506 messages. */
function how(f: ProfileFile): string {
  return f.origin === 'import' ? f.reason : `as ${f.path}`;
}

export function findingsOf(profile: AgentProfile, result: ProfileResult, canonical: ReadonlySet<string>, pathCount: number, view: RepoView): Finding[] {
  const out = new Map<string, Finding>();
  const add = (code: string, file: string, detail: string, replace = false): void => {
    const key = `${code}\u0000${file}`;
    if (!out.has(key) || replace) out.set(key, { code, file, profile, paths: pathCount, detail });
  };
  const project = result.files.filter((f) => !f.path.startsWith('~/'));
  const loaded = project.filter((f) => !f.skipped && !f.cut);
  const readable = project.filter((f) => !f.cut && (!f.skipped || NEEDS_APPROVAL.test(f.skipped)));
  const loadedBytes = new Set(loaded.map((f) => view.read(f.path)).filter((b): b is Uint8Array => b !== undefined && b.length > 0).map(bytesKey));
  const canonicalBytes = new Set([...canonical].map((id) => view.read(id)).filter((b): b is Uint8Array => b !== undefined).map(bytesKey));
  const reaches = (path: string): boolean => {
    const b = view.read(path);
    return b !== undefined && b.length > 0 && loadedBytes.has(bytesKey(b));
  };
  for (const f of project) {
    if (f.skipped?.startsWith(SKIP_BUDGET)) add('RC5501', f.path, budgetDetail(result, f));
    else if (f.cut) add('RC5502', f.path, `at byte ${fmt(f.cut.offset)}, ${fmt(f.cut.bytesLost)} bytes lost: ${budgetDetail(result, f)}`);
    else if (f.skipped && canonical.has(f.path) && !f.skipped.startsWith(SKIP_LAZY) && !f.skipped.startsWith('blank') && !reaches(f.path)) {
      // The import's reason says more than the direct skip ("ignored: a CLAUDE.md is on the path").
      if (NEEDS_APPROVAL.test(f.skipped)) add('RC5507', f.path, `${f.reason}: ${f.skipped}`, true);
      else {
        // Files loaded once the user approves them count: an interactive session reads their instructions too.
        const told = toldToRead(readable.filter((r) => r.path !== f.path), view, f.path);
        if (told) add('RC5508', f.path, `${f.skipped}; ${told} tells the agent to read it`);
        else add('RC5503', f.path, f.skipped);
      }
    } else if (!f.skipped && f.origin === 'project' && !canonical.has(f.path)) {
      const b = view.read(f.path);
      if (b === undefined || !canonicalBytes.has(bytesKey(b))) add('RC5504', f.path, f.reason);
    }
  }
  for (const f of out.values()) if (f.code === 'RC5507') for (const c of ['RC5503', 'RC5508']) out.delete(`${c}\u0000${f.file}`);
  twice(loaded, view, add);
  return [...out.values()];
}

/** Size of the text scanned for a read instruction, per loaded file: the instruction sits in prose, not deep in a file. */
const MAX_SCAN = 64 * 1024;

/**
 * The loaded file (path) whose text tells the agent to read a file named like `path`:
 * "read its `AGENTS.md`", "use the Read tool to load AGENTS.md", also when the
 * sentence wraps onto the next line of its paragraph ("…to load\n[AGENTS.md](AGENTS.md)").
 * A link alone ("see AGENTS.md") is not an instruction to read, nor is "re-read
 * AGENTS.md after compaction" (which assumes it was read). A full stop ends the sentence,
 * and so does the end of its Markdown block: a blank line, a line that starts another
 * block (a heading, a list item, a quote, a table row), and the end of a heading line —
 * line endings counted alike (CRLF as LF).
 */
function toldToRead(loaded: readonly ProfileFile[], view: RepoView, path: string): string | null {
  const name = path.slice(path.lastIndexOf('/') + 1).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const re = new RegExp(`(?<![\\w-])(?:read|load)(?:s|ing)?\\b(?:[^.\\n]|\\n(?!${BLOCK_START})){0,80}?${name}`, 'gi');
  for (const f of loaded) {
    const b = view.read(f.path);
    if (b === undefined) continue;
    let seen = scanned.get(b);
    if (!seen) scanned.set(b, (seen = new Map()));
    let hit = seen.get(name);
    if (hit === undefined) seen.set(name, (hit = saysRead(re, bufferOf(b.subarray(0, MAX_SCAN)).toString('utf8').replace(/\r\n?/g, '\n'))));
    if (hit) return f.path;
  }
  return null;
}

/** What starts a Markdown block on the next line: a blank line, a heading, a list item, a quote, a table row. */
const BLOCK_START = '[ \\t]*(?:\\n|#|[-*+][ \\t]|\\d{1,9}[.)][ \\t]|>|\\|)';

/** Whether `re` (global) matches `text` other than across the end of a heading line (a heading never wraps). */
function saysRead(re: RegExp, text: string): boolean {
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const lineStart = text.lastIndexOf('\n', m.index) + 1;
    const wraps = m[0].includes('\n');
    if (!wraps || !/^[ \t]{0,3}#/.test(text.slice(lineStart, lineStart + 4))) return true;
    re.lastIndex = m.index + 1;
  }
  return false;
}

/** Per file bytes and name: whether the text tells the agent to read it (profiles run per session class; a file is scanned once). */
const scanned = new WeakMap<Uint8Array, Map<string, boolean>>();

/**
 * Step 5: loaded files with equal, non-blank bytes. A repeat that only follows from another
 * (what a twice-sent AGENTS.md imports arrives twice too) is not reported again.
 */
function twice(loaded: readonly ProfileFile[], view: RepoView, add: (code: string, file: string, detail: string) => void): void {
  const groups = new Map<string, ProfileFile[]>();
  for (const f of loaded) {
    const b = view.read(f.path);
    if (b === undefined || isBlank(b)) continue;
    const k = bytesKey(b);
    groups.set(k, [...(groups.get(k) ?? []), f]);
  }
  const repeated = new Set<string>();
  for (const g of groups.values()) {
    if (g.length < 2) continue;
    const follows = g.slice(1).every((f) => f.importedBy !== undefined && repeated.has(f.importedBy));
    for (const f of g) repeated.add(f.path);
    if (follows) continue;
    const routes = g.map(how);
    const times = g.length === 2 ? 'twice' : `${g.length} times`;
    add('RC5506', g[0]!.path, `${times}|${routes.slice(0, -1).join(', ')} and ${routes[routes.length - 1]}`);
  }
}
