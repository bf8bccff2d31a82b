/**
 * GitHub Copilot CLI profile — checked against @github/copilot 1.0.102
 * (captured with the agent oracle; see test/profiles/expected/copilot).
 *
 * 1. Global ~/.copilot/copilot-instructions.md ($COPILOT_HOME), then the
 *    repo-wide .github/copilot-instructions.md.
 * 2. Directories: the repo root first, then cwd and its parents walking up
 *    to (not including) the root — so for cwd a/b/c: root, a/b/c, a/b, a.
 *    In each: AGENTS.md, CLAUDE.md, GEMINI.md (all that exist; no
 *    AGENTS.override.md, .claude/CLAUDE.md or CLAUDE.local.md).
 * 3. Text: lossy UTF-8 with the BOM dropped; CRLF, frontmatter and comments
 *    stay. Only CLAUDE.md expands `@path` imports (recursively, no depth
 *    limit seen, repo-relative targets only): right after the token comes
 *    "\n\n<imported_custom_instruction source=\"<abs>\">\n<text></imported_custom_instruction>";
 *    a file already on the chain becomes a self-closing element with
 *    skipped="already-loaded"; missing, home and outside targets stay as text.
 * 4. Each file: "<custom_instruction>\n<text>\n</custom_instruction>".
 * 5. Then the files that apply to every path — .github/instructions/**\/*.instructions.md
 *    with applyTo "**", and .claude/rules/**\/*.md without paths: — raw, and
 *    a table of the path-specific ones (applyTo/paths globs) that the agent
 *    is told to read with its `view` tool before editing matching files.
 * 6. All parts joined by "\n\n". No truncation.
 */
import { maskInline, scanLines } from '../parse/markdown-scan.js';
import { normalisePosix } from './claude-imports.js';
import { decodeLossy, dirChain, exists, finish, frontmatterOf, joinRel, pathsWithPrefix, showRepo, stripBom, tokensOf } from './common.js';
import type { AgentProfile, ProfileFile, RepoView } from './types.js';
import { SKIP_LAZY } from './types.js';

const VERSION = '1.0.102';
const NAMES = ['AGENTS.md', 'CLAUDE.md', 'GEMINI.md'];
const TABLE_HEAD = [
  'Here is a list of instruction files that contain rules for modifying or creating new code.',
  'These files are important for ensuring that the code is modified or created correctly.',
  'Please make sure to follow the rules specified in these files when working with the codebase.',
  'If you have not already read the file, use the `view` tool to acquire it.',
  'Make sure to acquire the instructions before making any changes to the code.',
  '| Pattern | File Path | Description |',
  '| ------- | --------- | ----------- |',
];

function read(view: RepoView, path: string): { raw: Uint8Array; text: string } | null {
  const raw = view.read(path);
  return raw === undefined ? null : { raw, text: stripBom(decodeLossy(raw)) };
}

/** Step 3: CLAUDE.md import expansion. */
function expand(view: RepoView, files: ProfileFile[], text: string, dir: string, chain: readonly string[]): string {
  let out = '';
  let offset = 0;
  let commentOpen = false;
  for (const line of scanLines(text)) {
    let cursor = 0;
    let rendered = '';
    if (!line.inFence) {
      const m = maskInline(line.text, commentOpen);
      commentOpen = m.commentOpen;
      for (const hit of m.masked.matchAll(/(^|\s)@((?:[^\s\\]|\\ )+)/g)) {
        const target = hit[2] ?? '';
        const end = (hit.index ?? 0) + hit[0].length;
        rendered += line.text.slice(cursor, end);
        cursor = end;
        if (target.startsWith('~') || target.startsWith('/')) continue;
        const rel = normalisePosix(joinRel(dir, target));
        if (rel.startsWith('../')) continue;
        const source = showRepo(view, rel);
        if (chain.includes(rel)) {
          rendered += `\n\n<imported_custom_instruction source="${source}" skipped="already-loaded" />`;
          continue;
        }
        const got = read(view, rel);
        if (got === null) continue;
        files.push({ path: rel, origin: 'import', bytes: got.raw.length, keptBytes: got.raw.length, tokens: tokensOf(got.text), reason: `imported by ${chain[chain.length - 1]} (@${target})` });
        const sub = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '';
        rendered += `\n\n<imported_custom_instruction source="${source}">\n${expand(view, files, got.text, sub, [...chain, rel])}</imported_custom_instruction>`;
      }
    }
    out += rendered + line.text.slice(cursor) + (offset + line.text.length < text.length ? '\n' : '');
    offset += line.text.length + 1;
  }
  return out;
}

function dirOrder(cwd: string): string[] {
  const chain = dirChain(cwd);
  return ['', ...chain.slice(1).reverse()];
}

interface Scoped { path: string; pattern: string | null; description: string }

/** Step 5: applyTo files and Claude rules, split into always-applied and path-specific. */
function scopedFiles(view: RepoView): Scoped[] {
  const out: Scoped[] = [];
  const add = (prefix: string, suffix: string, key: 'applyTo' | 'paths'): void => {
    for (const path of pathsWithPrefix(view, prefix)) {
      if (!path.endsWith(suffix)) continue;
      const data = frontmatterOf(view, path) ?? {};
      const v = data[key];
      const globs = typeof v === 'string' ? v.split(',').map((s) => s.trim()) : Array.isArray(v) ? v.map(String) : [];
      const description = typeof data.description === 'string' ? data.description : '';
      const always = key === 'paths' ? globs.length === 0 : globs.includes('**') || globs.includes('**/*');
      if (key === 'applyTo' && globs.length === 0) continue;
      out.push({ path, pattern: always ? null : globs.join(', '), description });
    }
  };
  add('.github/instructions/', '.instructions.md', 'applyTo');
  add('.claude/rules/', '.md', 'paths');
  return out;
}

export const copilotCliProfile: AgentProfile = {
  name: 'copilot-cli',
  agent: 'Copilot CLI',
  agentVersion: VERSION,
  summary: 'Global and repo-wide copilot-instructions.md, then AGENTS.md/CLAUDE.md/GEMINI.md in the root, cwd and cwd\'s parents ' +
    '(CLAUDE.md imports inlined), then applyTo "**" files and unconditional Claude rules, and a table of path-specific ones.',
  load(view, cwd) {
    const files: ProfileFile[] = [];
    const parts: string[] = [];
    const wrap = (path: string, origin: ProfileFile['origin'], raw: Uint8Array, text: string, reason: string): void => {
      files.push({ path, origin, bytes: raw.length, keptBytes: raw.length, tokens: tokensOf(text), reason });
      parts.push(`<custom_instruction>\n${text}\n</custom_instruction>`);
    };
    const home = view.readHome('.copilot/copilot-instructions.md');
    if (home !== undefined) wrap('~/.copilot/copilot-instructions.md', 'global', home, stripBom(decodeLossy(home)), 'personal instructions');
    const repoWide = read(view, '.github/copilot-instructions.md');
    if (repoWide) wrap('.github/copilot-instructions.md', 'project', repoWide.raw, repoWide.text, 'repository-wide instructions');
    for (const dir of dirOrder(cwd)) {
      for (const name of NAMES) {
        const path = joinRel(dir, name);
        const got = exists(view, path) ? read(view, path) : null;
        if (got === null) continue;
        const index = files.length;
        const text = name === 'CLAUDE.md' ? expand(view, files, got.text, dir, [path]) : got.text;
        wrap(path, 'project', got.raw, text, `${name} in ${dir === '' ? 'the root' : dir}`);
        files.splice(index, 0, files.pop()!);
      }
    }
    const scoped = scopedFiles(view);
    for (const s of scoped.filter((x) => x.pattern === null)) {
      const got = read(view, s.path);
      if (got === null) continue; // unreadable (a broken or escaping symlink): the agent gets nothing from it
      files.push({ path: s.path, origin: 'project', bytes: got.raw.length, keptBytes: got.raw.length, tokens: tokensOf(got.text), reason: 'applies to every path' });
      parts.push(got.text);
    }
    const lazy = scoped.filter((x) => x.pattern !== null);
    for (const s of lazy) {
      files.push({ path: s.path, origin: 'project', bytes: view.read(s.path)?.length ?? 0, keptBytes: 0, tokens: 0, reason: `path-specific (${s.pattern})`, skipped: `${SKIP_LAZY}: listed in a table; the agent reads it with its view tool` });
    }
    if (lazy.length > 0) parts.push([...TABLE_HEAD, ...lazy.map((s) => `| ${s.pattern} | '${s.path}' | ${s.description} |`), ''].join('\n'));
    return finish(this.name, VERSION, cwd, files, parts.join('\n\n'), []);
  },
};
