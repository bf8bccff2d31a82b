/**
 * GitHub Copilot CLI profile — checked against @github/copilot 1.0.102
 * (captured with the agent oracle; see test/profiles/expected/copilot,
 * fixtures i, j, n, o, p, q, r, s, t).
 *
 * 1. Global ~/.copilot/copilot-instructions.md ($COPILOT_HOME).
 * 2. `.github/copilot-instructions.md` of the repo root, then of cwd.
 * 3. AGENTS.md, CLAUDE.md, GEMINI.md of the root, then of cwd.
 * 4. Each directory between cwd and the root, walking up from cwd's parent:
 *    its `.github/copilot-instructions.md`, AGENTS.md, CLAUDE.md, GEMINI.md.
 *    No AGENTS.override.md, .claude/CLAUDE.md or CLAUDE.local.md.
 * 5. A file whose text (after step 6) equals one already sent (a symlink to
 *    it, a copy) is skipped.
 * 6. Text: lossy UTF-8 with the BOM dropped; CRLF, frontmatter and comments
 *    stay. AGENTS.md and CLAUDE.md expand `@path` imports (copilot-imports.ts).
 *    Each file: "<custom_instruction>\n<text>\n</custom_instruction>".
 * 7. Then, for the root and then cwd: `.github/instructions/**\/*.instructions.md`
 *    and `.claude/rules/**\/*.md` (any case of `.md`), in path order, except
 *    files whose `excludeAgent` is (or lists) "coding-agent" or "cloud-agent".
 *    A file with no applyTo/paths globs, or only `*`, `**` and `**\/*`, is sent
 *    raw (frontmatter included); the others go into a table the agent is told
 *    to read with its `view` tool: pattern, path relative to the directory
 *    they were found in, description (`|` escaped).
 * 8. The custom instructions and the step-7 section (raw files each followed
 *    by "\n", then the table, joined by "\n") are joined by "\n\n". No truncation.
 */
import { expandCopilotImports } from './copilot-imports.js';
import { byComponents, decodeLossy, dirChain, exists, finish, frontmatterOf, joinRel, pathsWithPrefix, perView, stripBom, tokensOf } from './common.js';
import type { AgentProfile, ProfileFile, RepoView } from './types.js';
import { SKIP_LAZY } from './types.js';

const VERSION = '1.0.102';
const NAMES = ['AGENTS.md', 'CLAUDE.md', 'GEMINI.md'];
const REPO_WIDE = '.github/copilot-instructions.md';
const EXPANDS = new Set(['AGENTS.md', 'CLAUDE.md']);
const EXCLUDED_AGENTS = new Set(['coding-agent', 'cloud-agent']);
const MATCH_ALL = new Set(['*', '**', '**/*']);
const TABLE_HEAD = [
  'Here is a list of instruction files that contain rules for modifying or creating new code.',
  'These files are important for ensuring that the code is modified or created correctly.',
  'Please make sure to follow the rules specified in these files when working with the codebase.',
  'If you have not already read the file, use the `view` tool to acquire it.',
  'Make sure to acquire the instructions before making any changes to the code.',
  '| Pattern | File Path | Description |',
  '| ------- | --------- | ----------- |',
];

interface Custom { dir: string; name: string }

/** Steps 2–4: the per-directory files in the order Copilot sends them. */
function customFiles(cwd: string): Custom[] {
  const up = dirChain(cwd).slice(1, -1).reverse();
  const own = (dir: string): Custom[] => NAMES.map((name) => ({ dir, name }));
  const tops = cwd === '' ? [''] : ['', cwd];
  return [...tops.map((dir) => ({ dir, name: REPO_WIDE })), ...tops.flatMap(own), ...up.flatMap((dir) => [{ dir, name: REPO_WIDE }, ...own(dir)])];
}

interface Scoped { path: string; shown: string; pattern: string | null; description: string }

function globsOf(v: unknown): string[] {
  const list = typeof v === 'string' ? v.split(',') : Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : '')) : [];
  return list.map((s) => s.trim()).filter((s) => s !== '');
}

function excluded(v: unknown): boolean {
  const list = typeof v === 'string' ? [v] : Array.isArray(v) ? v : [];
  return list.some((x) => typeof x === 'string' && EXCLUDED_AGENTS.has(x));
}

/** Step 7 for one directory: instruction files, then Claude rules (the same for every cwd below it: remembered). */
const scopedFiles = perView((view, dir): readonly Scoped[] => {
  const out: Scoped[] = [];
  const add = (container: string, keep: (p: string) => boolean, key: 'applyTo' | 'paths'): void => {
    const prefix = joinRel(dir, `${container}/`);
    const found = pathsWithPrefix(view, prefix).filter(keep).sort(byComponents);
    for (const path of found) {
      const data = frontmatterOf(view, path) ?? {};
      if (excluded(data.excludeAgent)) continue;
      const globs = globsOf(data[key]);
      const description = typeof data.description === 'string' ? data.description : '';
      const shown = dir === '' ? path : path.slice(dir.length + 1);
      out.push({ path, shown, pattern: globs.every((g) => MATCH_ALL.has(g)) ? null : globs.join(', '), description });
    }
  };
  add('.github/instructions', (p) => p.endsWith('.instructions.md'), 'applyTo');
  add('.claude/rules', (p) => p.toLowerCase().endsWith('.md'), 'paths');
  return out;
});

/**
 * Step 7 and 8's section for a session in `cwd` (the root's rules, then cwd's): the files it lists
 * and its text, or null when it has none. The same for every session whose cwd has no rules of its
 * own, so worked out once per view and cwd: a repository with a context per module would otherwise
 * build the table of every path-specific rule once per module.
 */
const scopedSection = perView((view, cwd): { files: readonly ProfileFile[]; text: string | null } => {
  const scoped = (cwd === '' ? [''] : ['', cwd]).flatMap((d) => scopedFiles(view, d));
  const files: ProfileFile[] = [];
  const scopedParts: string[] = [];
  for (const s of scoped.filter((x) => x.pattern === null)) {
    const raw = view.read(s.path);
    if (raw === undefined) continue; // unreadable (a broken or escaping symlink): the agent gets nothing from it
    const text = stripBom(decodeLossy(raw));
    files.push({ path: s.path, origin: 'project', bytes: raw.length, keptBytes: raw.length, tokens: tokensOf(text), reason: 'applies to every path' });
    scopedParts.push(`${text}\n`);
  }
  const lazy = scoped.filter((x) => x.pattern !== null);
  for (const s of lazy) {
    files.push({ path: s.path, origin: 'project', bytes: view.read(s.path)?.length ?? 0, keptBytes: 0, tokens: 0, reason: `path-specific (${s.pattern})`, skipped: `${SKIP_LAZY}: listed in a table; the agent reads it with its view tool` });
  }
  const row = (s: Scoped): string => `| ${s.pattern} | '${s.shown}' | ${s.description.replace(/\|/g, '\\|')} |`;
  if (lazy.length > 0) scopedParts.push([...TABLE_HEAD, ...lazy.map(row), ''].join('\n'));
  return { files, text: scopedParts.length > 0 ? scopedParts.join('\n') : null };
});

export const copilotCliProfile: AgentProfile = {
  name: 'copilot-cli',
  agent: 'Copilot CLI',
  agentVersion: VERSION,
  summary: 'Global and repo-wide copilot-instructions.md, AGENTS.md/CLAUDE.md/GEMINI.md in the root, cwd and the directories between ' +
    '(imports inlined in AGENTS.md and CLAUDE.md, same bytes sent once), then .github/instructions and .claude/rules of the root and cwd: ' +
    'match-all ones raw, a table of the path-specific ones.',
  load(view, cwd) {
    const files: ProfileFile[] = [];
    const parts: string[] = [];
    const sent = new Set<string>();
    const custom = (path: string, origin: ProfileFile['origin'], raw: Uint8Array, reason: string, dir: string | null): void => {
      const imports: ProfileFile[] = [];
      const plain = stripBom(decodeLossy(raw));
      const text = dir === null ? plain : expandCopilotImports({ view, files: imports, loaded: new Set([view.realPath?.(path) ?? path]) }, plain, dir, path);
      if (sent.has(text)) {
        files.push({ path, origin, bytes: raw.length, keptBytes: 0, tokens: 0, reason, skipped: 'same text as a file already sent: sent once' });
        return;
      }
      sent.add(text);
      files.push({ path, origin, bytes: raw.length, keptBytes: raw.length, tokens: tokensOf(text), reason }, ...imports);
      parts.push(`<custom_instruction>\n${text}\n</custom_instruction>`);
    };
    const home = view.readHome('.copilot/copilot-instructions.md');
    if (home !== undefined) custom('~/.copilot/copilot-instructions.md', 'global', home, 'personal instructions', null);
    for (const { dir, name } of customFiles(cwd)) {
      const path = joinRel(dir, name);
      const raw = exists(view, path) ? view.read(path) : undefined;
      if (raw === undefined) continue;
      const where = dir === '' ? 'the root' : dir;
      custom(path, 'project', raw, name === REPO_WIDE ? `repository-wide instructions in ${where}` : `${name} in ${where}`, EXPANDS.has(name) ? dir : null);
    }
    // Below the root, a directory without rules of its own gets the root's section.
    const section = scopedSection(view, cwd === '' || scopedFiles(view, cwd).length === 0 ? '' : cwd);
    files.push(...section.files);
    if (section.text !== null) parts.push(section.text);
    return finish(this.name, VERSION, cwd, files, parts.join('\n\n'), []);
  },
};
