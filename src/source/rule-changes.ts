/**
 * Which paths changed between two commits, and which of them can change the
 * bundle — `rulec check`'s fast path, so it must answer without compiling,
 * without the tokenizer and without reading the work tree:
 *
 * 1. `git diff --name-only --no-renames base head`: the changed
 *    paths, a rename as the old and the new path.
 * 2. A path counts when it is an instruction file (the format table), the
 *    policy file, or lies in a managed directory inside the repository.
 * 3. Any other changed path counts when it lies in a tree's rule closure: the
 *    files its instruction files import, directly or through other imported
 *    files, the links on the way and the real files behind them — or when it
 *    stands where the closure needs a directory (a file or link that replaces
 *    one). The `@` tokens of each level are read from git objects and resolved
 *    with importTarget, up to the import depth limit.
 * 4. Which closure: when nothing counted in step 2, base's. No file that
 *    base's closure read changed, so head's closure is the same one; base is
 *    shared by every pull request on the branch, and its closure is kept in
 *    the git directory by tree id (closure-cache.ts), so the common answer
 *    "nothing to check" needs no walk of the tree. When something counts,
 *    head's closure completes the list (an import that only base had sits in
 *    a file that changed, and that file is itself checked).
 */
import { REPO_POLICY_PATH } from '../config/policy-path.js';
import { compilerVersion } from '../config/package-files.js';
import { classifyPath, formatPathspecs } from '../formats/formats.js';
import { importCandidates, importTarget } from '../parse/import-target.js';
import { IMPORT_TOKEN, importPath } from '../parse/import-token.js';
import { isWithin } from '../util/posix-path.js';
import { closureStore, type ClosureStore } from './closure-cache.js';
import { gitBatch } from './git-batch.js';
import { run, runStatus } from './git-run.js';

export interface RuleChanges {
  /** Every changed path, sorted. */
  changed: string[];
  /** Those that can change the bundle, sorted. */
  relevant: string[];
  /** What went wrong with the closure cache (for stderr): never a reason to fail. */
  notes: string[];
}

/** Import hops followed: the most any policy allows (imports.max_depth ≤ 16), so no policy makes a change invisible here. */
const MAX_DEPTH = 16;

export async function ruleChanges(repoDir: string, base: string, head: string, options: { policyFile?: string; managedDirs?: readonly string[] } = {}): Promise<RuleChanges> {
  // Both questions through one shell (git-batch.ts), not simple-git: this path answers most checks,
  // and loading simple-git costs more than the two queries.
  const queries = [['diff', '--name-only', '-z', '--no-renames', '--no-ext-diff', base, head, '--'], ['rev-parse', '--git-common-dir', `${base}^{tree}`, `${head}^{tree}`]];
  const { results, stderr } = await gitBatch(repoDir, queries);
  const failed = results.findIndex((r) => r.code !== 0);
  if (failed >= 0) throw new Error(`git ${queries[failed]?.[0]} failed: ${stderr.trim()}`);
  const [out = '', ids = ''] = results.map((r) => r.stdout.toString('utf8'));
  const changed = out.split('\0').filter((p) => p !== '').sort(compare);
  const [gitDir = '.git', baseTree = '', headTree = ''] = ids.split('\n');
  const policyFile = options.policyFile ?? REPO_POLICY_PATH;
  const managed = options.managedDirs ?? [];
  const relevant = new Set(changed.filter((p) => p === policyFile || classifyPath(p) !== null || managed.some((d) => isWithin(p, d))));
  const others = changed.filter((p) => !relevant.has(p));
  const store = closureStore(repoDir, gitDir, [compilerVersion(), formatPathspecs(true), MAX_DEPTH]);
  if (others.length > 0 && relevant.size === 0) addReached(others, await closureOf(repoDir, base, baseTree, store), relevant);
  if (others.length > 0 && relevant.size > 0) addReached(others, await closureOf(repoDir, head, headTree, store), relevant);
  return { changed, relevant: [...relevant].sort(compare), notes: [...store.notes] };
}

/** Add each of `paths` that lies in `closure` or stands where it needs a directory. */
function addReached(paths: readonly string[], closure: ReadonlySet<string>, into: Set<string>): void {
  const dirs = new Set<string>();
  for (const p of closure) for (let i = p.indexOf('/'); i > 0; i = p.indexOf('/', i + 1)) dirs.add(p.slice(0, i));
  for (const p of paths) if (closure.has(p) || dirs.has(p)) into.add(p);
}

/** `rev`'s closure: from the store by tree id, else walked and stored. */
async function closureOf(repoDir: string, rev: string, tree: string, store: ClosureStore): Promise<Set<string>> {
  const kept = store.get(tree);
  if (kept !== null) return kept;
  const reached = await importedFrom(repoDir, rev);
  store.put(tree, reached);
  return reached;
}

/**
 * Every path `rev`'s instruction files import, directly or through imported
 * files, whether or not it exists — and the links on the way and the real
 * paths behind them (discovery reads a link's target, resolving its imports
 * from the link's place). One `git grep -l @` over the instruction files finds the few that
 * can import anything at all; each level's files are then read in one
 * `git cat-file --batch` and their tokens resolved.
 */
async function importedFrom(repoDir: string, rev: string): Promise<Set<string>> {
  const [links, withAt] = await Promise.all([symlinksOf(repoDir, rev), filesWithAt(repoDir, rev)]);
  const reached = new Set<string>();
  const read = new Set<string>();
  /** Real path to read → the ids it was reached as (imports resolve against those). */
  let frontier = new Map<string, Set<string>>();
  const reach = (id: string): void => {
    reached.add(id);
    const real = realPath(id, links, reached);
    if (real === null) return;
    reached.add(real);
    if (read.has(real)) return;
    frontier.set(real, (frontier.get(real) ?? new Set<string>()).add(id));
  };
  for (const p of withAt) if (classifyPath(p) !== null) reach(p);
  // Instruction files that are links: discovery reads their targets.
  for (const p of links.keys()) if (classifyPath(p) !== null) reach(p);
  for (let depth = 0; depth <= MAX_DEPTH && frontier.size > 0; depth++) {
    const level = frontier;
    frontier = new Map();
    for (const real of level.keys()) read.add(real);
    const texts = await blobsAt(repoDir, rev, [...level.keys()]);
    for (const [real, ids] of level) {
      for (const token of importTokens(texts.get(real) ?? '')) {
        for (const from of ids) {
          for (const candidate of importCandidates(token)) {
            // A root that matches no absolute path: an absolute import is never followed from a git tree.
            const t = importTarget({ root: 'repo', rel: from }, candidate, { repo: '/\0' });
            if (t.kind === 'file' && !reached.has(t.id)) reach(t.id);
          }
        }
      }
    }
  }
  return reached;
}

/**
 * `@path` tokens at a word start, as parse-doc reads imports (`\ ` escapes a
 * space) — also inside code spans, fences and comments, which parse-doc
 * skips: a superset, so a change is compiled rather than missed.
 */
function importTokens(text: string): string[] {
  if (!text.includes('@')) return [];
  return [...text.matchAll(IMPORT_TOKEN)].map((m) => importPath(m[1] ?? ''));
}

/**
 * The files among `rev`'s instruction files that contain an `@` at all.
 * Searched by the name endings of discovery's pathspecs (`*.md`, `*.mdc`,
 * `*.cursorrules`), not by the pathspecs: git matches every pathspec against
 * every path of the tree, and three loose ones cost less than a dozen exact
 * ones plus the extra Markdown read (230 → 140 ms on 100,000 paths).
 * classifyPath decides which hits are instruction files. `-a`: a file git
 * takes for binary (a NUL byte, `binary` in .gitattributes) is searched too,
 * or its imports would drop out of the closure.
 */
async function filesWithAt(repoDir: string, rev: string): Promise<string[]> {
  const specs = nameEndings(formatPathspecs(true)).map((end) => `*${end}`);
  const r = await runStatus(repoDir, ['grep', '-l', '-z', '-a', '-F', '-e', '@', rev, '--', ...specs]);
  if (r.code === 1) return [];
  if (r.code !== 0) throw new Error(`git grep failed: ${r.stderr.trim()}`);
  return r.stdout.toString('utf8').split('\0').filter((x) => x.startsWith(`${rev}:`)).map((x) => x.slice(rev.length + 1));
}

/**
 * How the pathspecs' last segments end, reduced to the shortest endings:
 * `**\/AGENTS.md` ends in `AGENTS.md`, `**\/*.md` in `.md`, which covers it.
 */
export function nameEndings(pathspecs: readonly string[]): string[] {
  const ends = pathspecs.map((spec) => {
    const last = spec.replace(/^:\([^)]*\)/, '').split('/').pop() ?? '';
    return last.slice(last.lastIndexOf('*') + 1);
  });
  // An empty ending (a last segment that ends in `*`) matches every name: search every path.
  if (ends.includes('')) return [''];
  const kept = [...new Set(ends)];
  return kept.filter((e) => !kept.some((o) => o !== e && e.endsWith(o))).sort();
}

/** The text of each of `paths` in `rev` that is a file there (one `git cat-file --batch`, by `rev:path`). */
async function blobsAt(repoDir: string, rev: string, paths: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const usable = paths.filter((p) => !p.includes('\n'));
  if (usable.length === 0) return out;
  const batch = await run(repoDir, ['cat-file', '--batch'], `${usable.map((p) => `${rev}:${p}`).join('\n')}\n`);
  let at = 0;
  for (const p of usable) {
    const nl = batch.indexOf(0x0a, at);
    if (nl < 0) break;
    // "<sha> <type> <size>", or "<rev:path as given> missing|ambiguous" (the path may hold spaces).
    const header = batch.subarray(at, nl).toString('utf8');
    const [, type = '', size = ''] = header.split(' ');
    if (/ (?:missing|ambiguous)$/.test(header) || !/^\d+$/.test(size)) {
      at = nl + 1;
      continue;
    }
    const n = Number(size);
    if (type === 'blob') out.set(p, batch.subarray(nl + 1, nl + 1 + n).toString('utf8'));
    at = nl + 1 + n + 1;
  }
  return out;
}

/** The symbolic links of `rev` (mode 120000) and their targets: found by scanning the listing, read in one batch. */
async function symlinksOf(repoDir: string, rev: string): Promise<Map<string, string>> {
  const listing = (await run(repoDir, ['ls-tree', '-r', '-z', '--full-tree', rev])).toString('utf8');
  // Records are "<mode> blob <sha>\t<path>" NUL: find the ones that start with the symlink mode without splitting 100,000 records.
  const mark = '\u0000120000 ';
  const starts = listing.startsWith('120000 ') ? [0] : [];
  for (let i = listing.indexOf(mark); i >= 0; i = listing.indexOf(mark, i + 1)) starts.push(i + 1);
  const found: [string, string][] = starts.map((at) => {
    const tab = listing.indexOf('\t', at);
    const end = listing.indexOf('\u0000', tab);
    return [listing.slice(tab + 1, end < 0 ? listing.length : end), listing.slice(at + '120000 blob '.length, tab)];
  });
  const links = new Map<string, string>();
  if (found.length === 0) return links;
  const batch = await run(repoDir, ['cat-file', '--batch'], `${found.map(([, sha]) => sha).join('\n')}\n`);
  let at = 0;
  for (const [path] of found) {
    const nl = batch.indexOf(0x0a, at);
    const size = Number(batch.subarray(at, nl).toString('utf8').split(' ')[2] ?? 0);
    links.set(path, batch.subarray(nl + 1, nl + 1 + size).toString('utf8'));
    at = nl + 1 + size + 1;
  }
  return links;
}

/**
 * `path` with every symlink on it expanded (relative targets only, at most
 * 40), or null when it leaves the tree. Each link it passes is added to
 * `passed`: retargeting one changes what the path reads.
 */
function realPath(path: string, links: ReadonlyMap<string, string>, passed: Set<string>): string | null {
  if (links.size === 0) return path;
  const todo = path.split('/').reverse();
  const done: string[] = [];
  for (let seg = todo.pop(), hops = 0; seg !== undefined; seg = todo.pop()) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (done.pop() === undefined) return null;
      continue;
    }
    const at = [...done, seg].join('/');
    const target = links.get(at);
    if (target === undefined) {
      done.push(seg);
      continue;
    }
    passed.add(at);
    if (++hops > 40 || target.startsWith('/')) return null;
    todo.push(...target.split('/').reverse());
  }
  return done.join('/');
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
