/**
 * Claude Code profile — checked against @anthropic-ai/claude-code 2.1.332
 * (captured with the agent oracle; see test/profiles/expected/claude).
 *
 * 1. Managed /etc/claude-code/CLAUDE.md would come first; rulec's view has no
 *    system files, so it is not shown.
 * 2. User: ~/.claude/CLAUDE.md, then ~/.claude/rules/**\/*.md by path.
 * 3. Project: every directory from the root down to cwd (directories above
 *    the repository are outside rulec's view). Per directory: CLAUDE.md,
 *    .claude/CLAUDE.md, .claude/rules/**\/*.md without `paths:` globs (rules
 *    with globs load lazily when a matching file is read; `paths: []`, `""`
 *    or empty count as none), CLAUDE.local.md. Nothing shadows anything.
 *    Rules load in the order the file system lists them (readdir order, not
 *    by name: hashed on ext4); without a listing rulec uses name order, depth
 *    first. A rule that is a symbolic link loads from (and shows) its target,
 *    and only when the target is inside cwd or external files are approved.
 * 4. AGENTS.md (per directory, in CLAUDE.md's place) is read only when no
 *    CLAUDE.md, .claude/CLAUDE.md or CLAUDE.local.md exists on the whole path
 *    from the root to cwd. AGENTS.override.md is never read.
 * 5. CLAUDE.md files below cwd load lazily when Claude reads a file there.
 * 6. Each file: lossy UTF-8 → claudeText() (BOM, frontmatter, block HTML
 *    comments, trim); a blank result is skipped; its @imports follow right
 *    after it (claude-imports.ts). A file reached twice (by a symbolic link,
 *    an import) loads once.
 * 7. A file over 4 MiB is skipped whole; there is no other budget.
 * 8. Framing: one user message "<system-reminder>\n" + PREAMBLE + "\n\n", the
 *    segments "Contents of <abs path> (<description>):\n\n<text>" joined by
 *    "\n\n", then "\n</system-reminder>". Imports inherit the description of
 *    the file that imports them.
 */
import { claudeImportTargets, insideDir, placeImport } from './claude-imports.js';
import { stripBlockComments } from './html-comments.js';
import { byComponents, decodeLossy, dirChain, exists, finish, frontmatterOf, joinRel, optionBool, optionNumber, pathsWithPrefix, perView, showHome, showRepo, skipped, stripBom, tokensOf } from './common.js';
import { parseFrontmatter } from '../parse/frontmatter.js';
import type { AgentProfile, FileOrigin, ProfileFile, RepoView } from './types.js';
import { SKIP_LAZY } from './types.js';

const VERSION = '2.1.332';
const PREAMBLE = 'Codebase and user instructions are shown below. Be sure to adhere to these instructions. ' +
  'IMPORTANT: These instructions OVERRIDE any default behavior and you MUST follow them exactly as written.';
const DESC_PROJECT = 'project instructions, checked into the codebase';
const DESC_LOCAL = "user's private project instructions, not checked in";
const DESC_USER = "user's private global instructions for all projects";
const MAX_FILE = 4 * 1024 * 1024;
/** Frontmatter at the very start; CRLF in the body survives (m-transforms). */
const FRONTMATTER = /^---[ \t]*\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n|$)/;

/** Step 6: the text Claude shows for a file. */
export function claudeText(raw: Uint8Array): string {
  let text = decodeLossy(raw);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const fm = FRONTMATTER.exec(text);
  if (fm) text = text.slice(fm[0].length);
  if (text.includes('<!--')) text = stripBlockComments(text);
  return text.trim();
}

interface Loader {
  view: RepoView;
  cwd: string;
  files: ProfileFile[];
  segments: string[];
  seen: Set<string>;
  approve: boolean;
  maxDepth: number;
}

type Place = { home: boolean; path: string };
const keyOf = (p: Place): string => (p.home ? `~/${p.path}` : p.path);
/** The file behind a place: symbolic links followed, so one file reached twice is one identity. */
const identityOf = (l: Loader, p: Place): string => (p.home ? keyOf(p) : l.view.realPath?.(p.path) ?? p.path);
const display = (l: Loader, p: Place): string => (p.home ? showHome(l.view, p.path) : showRepo(l.view, p.path));
const dirOf = (path: string): string => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');

/** Load one file and, depth-first, what it imports. */
function loadFile(l: Loader, p: Place, origin: FileOrigin, desc: string, reason: string, depth: number, importer?: string): void {
  const raw = p.home ? l.view.readHome(p.path) : l.view.read(p.path);
  const key = keyOf(p);
  if (raw === undefined) {
    const why = !p.home && p.path.startsWith('../') ? 'outside the repository: not visible to rulec (Claude loads it when approved)'
      : 'import target not found (dropped silently)';
    if (origin === 'import') l.files.push(skipped(key, origin, 0, reason, why));
    return;
  }
  if (raw.length > MAX_FILE) {
    l.files.push(skipped(key, origin, raw.length, reason, 'over 4 MiB: skipped whole'));
    return;
  }
  const id = identityOf(l, p);
  if (l.seen.has(id)) {
    l.files.push(skipped(key, origin, raw.length, reason, 'same file as one already loaded (symbolic link): loaded once'));
    return;
  }
  l.seen.add(id);
  const text = claudeText(raw);
  if (text === '') {
    l.files.push(skipped(key, origin, raw.length, reason, 'blank after frontmatter and comments: skipped'));
    return;
  }
  l.segments.push(`Contents of ${display(l, p)} (${desc}):\n\n${text}`);
  l.files.push({ path: key, origin, bytes: raw.length, keptBytes: raw.length, tokens: tokensOf(text), reason, ...(importer ? { importedBy: importer } : {}) });
  for (const target of claudeImportTargets(text)) {
    const place = placeImport(target, dirOf(p.path), p.home);
    const why = `imported by ${key} (@${target})`;
    if (place.kind === 'absolute') {
      l.files.push(skipped(target, 'import', 0, why, 'absolute path outside rulec\'s view'));
      continue;
    }
    const next: Place = { home: place.kind === 'home', path: place.path };
    const nextKey = keyOf(next);
    if (l.seen.has(identityOf(l, next))) {
      l.files.push(skipped(nextKey, 'import', 0, why, 'already loaded (cycle or repeat)'));
    } else if (depth + 1 > l.maxDepth) {
      l.files.push(skipped(nextKey, 'import', 0, why, `import depth over ${l.maxDepth} hops`));
    } else if (!l.approve && (next.home || !insideDir(next.path, l.cwd))) {
      l.files.push(skipped(nextKey, 'import', 0, why, 'external import (outside cwd): needs approval, dropped in non-interactive mode'));
    } else {
      loadFile(l, next, 'import', desc, why, depth + 1, key);
    }
  }
}

/** A rule is lazy when its `paths:` names at least one glob (`[]`, `""` and an empty value name none). */
function hasRulePaths(view: RepoView, path: string, home: boolean): boolean {
  let data = home ? null : frontmatterOf(view, path);
  if (home) {
    const text = stripBom(decodeLossy(view.readHome(path) ?? new Uint8Array())).replace(/\r\n?/g, '\n');
    data = parseFrontmatter(path, text, false).value.data;
  }
  const v = data?.paths;
  const list = typeof v === 'string' ? [v] : Array.isArray(v) ? v : [];
  return list.some((g) => typeof g === 'string' && g.trim() !== '');
}

/**
 * The `.md` files under rules directory `base` (repo-relative, or home-relative when `home`) in
 * Claude's order: the file system's listing when the view has one (symbolic links to directories
 * followed, each directory once), else name order.
 */
export function claudeRuleFiles(view: RepoView, base: string, home: boolean): readonly string[] {
  return (home ? homeRuleFiles : repoRuleFiles)(view, base);
}

/** claudeRuleFiles, remembered per view and rules directory (one memo each for the repository and home): every session class below it asks again. */
const ruleFilesIn = (home: boolean) => perView((view, base): readonly string[] => {
  const key = (d: string): string => (home ? `~/${d}` : d);
  if (view.listDir?.(key(base)) !== undefined) {
    const out: string[] = [];
    const seen = new Set<string>();
    const walk = (dir: string): void => {
      const real = home ? dir : view.realPath?.(dir) ?? dir;
      if (seen.has(real)) return;
      seen.add(real);
      for (const e of view.listDir?.(key(dir)) ?? []) {
        const path = `${dir}/${e.name}`;
        if (e.isDir) walk(path);
        else if (e.name.endsWith('.md')) out.push(path);
      }
    };
    walk(base);
    return out;
  }
  const all = home ? (view.homePaths ?? []).filter((p) => p.startsWith(`${base}/`)) : pathsWithPrefix(view, `${base}/`);
  return all.filter((p) => p.endsWith('.md')).sort(byComponents);
});
const repoRuleFiles = ruleFilesIn(false);
const homeRuleFiles = ruleFilesIn(true);

/**
 * The rules of a project rules directory in Claude's order, each as the entry every session lists
 * for it when it is lazy (it has paths:), else its path: worked out once per view and directory,
 * since each session below the directory lists them all (a repository with a rule per module and
 * a context per module would otherwise classify modules × rules).
 */
const projectRules = perView((view, rules): readonly ({ lazy: ProfileFile } | { path: string })[] =>
  claudeRuleFiles(view, rules, false).map((path) => (hasRulePaths(view, path, false)
    ? { lazy: skipped(path, 'project', view.read(path)?.length ?? 0, `rule in ${rules}/`, `${SKIP_LAZY}: has paths:, loads when a matching file is read`) }
    : { path })));

/** One unconditional project rule: a symbolic link loads from its target, if approved when outside cwd. */
function projectRule(l: Loader, path: string, container: string): void {
  const bytes = l.view.read(path)?.length ?? 0;
  const real = l.view.realPath?.(path) ?? path;
  if (real !== path && !l.approve && !insideDir(real, l.cwd)) {
    l.files.push(skipped(path, 'project', bytes, `unconditional rule in ${container}`,
      `symbolic link to ${real}, outside cwd: needs approval, dropped in non-interactive mode`));
    return;
  }
  const why = real === path ? `unconditional rule in ${container}` : `unconditional rule in ${container} (${path} links to it)`;
  loadFile(l, { home: false, path: real }, 'project', DESC_PROJECT, why, 0);
}

function projectDir(l: Loader, dir: string, useAgents: boolean): void {
  const where = dir === '' ? 'the root' : dir;
  const main = useAgents ? 'AGENTS.md' : 'CLAUDE.md';
  const agents = joinRel(dir, 'AGENTS.md');
  if (!useAgents && exists(l.view, agents)) {
    l.files.push(skipped(agents, 'project', l.view.read(agents)?.length ?? 0, `AGENTS.md in ${where}`,
      'ignored: a CLAUDE.md, .claude/CLAUDE.md or CLAUDE.local.md is on the path to cwd'));
  }
  for (const name of [main, '.claude/CLAUDE.md']) {
    const path = joinRel(dir, name);
    if (exists(l.view, path)) loadFile(l, { home: false, path }, 'project', DESC_PROJECT, `${name} in ${where}`, 0);
  }
  const rules = joinRel(dir, '.claude/rules');
  for (const rule of projectRules(l.view, rules)) {
    if ('lazy' in rule) l.files.push(rule.lazy);
    else projectRule(l, rule.path, `${rules}/`);
  }
  const local = joinRel(dir, 'CLAUDE.local.md');
  if (exists(l.view, local)) loadFile(l, { home: false, path: local }, 'project', DESC_LOCAL, `CLAUDE.local.md in ${where}`, 0);
}

export const claudeCodeProfile: AgentProfile = {
  name: 'claude-code',
  agent: 'Claude Code',
  agentVersion: VERSION,
  summary: 'Every CLAUDE.md, .claude/CLAUDE.md, unconditional .claude/rules and CLAUDE.local.md from the root to cwd ' +
    '(AGENTS.md only where no CLAUDE.md is on the path), user files first, @imports 4 hops deep, comments stripped, no budget.',
  load(view, cwd, options) {
    const l: Loader = {
      view, cwd, files: [], segments: [], seen: new Set(),
      approve: optionBool(options, 'approve_external_imports', false),
      maxDepth: optionNumber(options, 'import_max_depth', 4),
    };
    if (view.readHome('.claude/CLAUDE.md') !== undefined) {
      loadFile(l, { home: true, path: '.claude/CLAUDE.md' }, 'global', DESC_USER, 'user memory', 0);
    }
    for (const rel of claudeRuleFiles(view, '.claude/rules', true)) {
      if (hasRulePaths(view, rel, true)) l.files.push(skipped(`~/${rel}`, 'global', view.readHome(rel)?.length ?? 0, 'user rule', `${SKIP_LAZY}: has paths:, loads when a matching file is read`));
      else loadFile(l, { home: true, path: rel }, 'global', DESC_USER, 'user rule', 0);
    }
    const chain = dirChain(cwd);
    const claudeOnPath = chain.some((d) => ['CLAUDE.md', '.claude/CLAUDE.md', 'CLAUDE.local.md'].some((n) => exists(view, joinRel(d, n))));
    for (const dir of chain) projectDir(l, dir, !claudeOnPath);
    for (const path of pathsWithPrefix(view, cwd === '' ? '' : `${cwd}/`)) {
      const below = cwd === '' ? path.includes('/') : path.startsWith(`${cwd}/`) && path.slice(cwd.length + 1).includes('/');
      if (below && (path.endsWith('/CLAUDE.md') && !path.endsWith('/.claude/CLAUDE.md'))) {
        l.files.push(skipped(path, 'project', view.read(path)?.length ?? 0, 'CLAUDE.md below cwd', `${SKIP_LAZY}: loads when Claude reads a file in its directory`));
      }
    }
    const text = l.segments.length === 0 ? '' : `<system-reminder>\n${PREAMBLE}\n\n${l.segments.join('\n\n')}\n</system-reminder>`;
    const notes = claudeOnPath ? [] : ['no CLAUDE.md on the path: Claude reads AGENTS.md instead'];
    return finish(this.name, VERSION, cwd, l.files, text, notes);
  },
};
