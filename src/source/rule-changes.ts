/**
 * Which paths changed between two commits, and which of them can change the
 * bundle — `rulec check`'s fast path, so it must answer without compiling,
 * without the tokenizer and without reading the work tree:
 *
 * 1. `git diff --name-only --no-renames base head` (simple-git): the changed
 *    paths, a rename as the old and the new path.
 * 2. A path counts when it is an instruction file (the format table), the
 *    policy file, or lies in a managed directory inside the repository.
 * 3. Any other changed path counts when head's instruction files import it,
 *    directly or through other imported files: starting from head's
 *    instruction files, `git grep` collects the `@` tokens of each level
 *    (reading objects only) and importTarget resolves them, up to the import
 *    depth limit. Head alone suffices: an import that only base had sits in
 *    a file that changed, and that file is itself checked.
 */
import { simpleGit } from 'simple-git';
import { REPO_POLICY_PATH } from '../config/repo-policy-path.js';
import { classifyPath } from '../discover/formats.js';
import { importCandidates, importTarget } from '../parse/import-target.js';
import { isWithin } from '../util/posix-path.js';
import { runStatus } from './git-tree.js';

export interface RuleChanges {
  /** Every changed path, sorted. */
  changed: string[];
  /** Those that can change the bundle, sorted. */
  relevant: string[];
}

/** Import hops followed: the most any policy allows (imports.max_depth ≤ 16), so no policy makes a change invisible here. */
const MAX_DEPTH = 16;

export async function ruleChanges(repoDir: string, base: string, head: string, options: { policyFile?: string; managedDirs?: readonly string[] } = {}): Promise<RuleChanges> {
  const out = await simpleGit({ baseDir: repoDir, trimmed: false }).raw(['--no-optional-locks', '-c', 'core.quotePath=false', 'diff', '--name-only', '-z', '--no-renames', '--no-ext-diff', base, head, '--']);
  const changed = out.split('\0').filter((p) => p !== '').sort(compare);
  const policyFile = options.policyFile ?? REPO_POLICY_PATH;
  const managed = options.managedDirs ?? [];
  const relevant = new Set(changed.filter((p) => p === policyFile || classifyPath(p) !== null || managed.some((d) => isWithin(p, d))));
  if (changed.some((p) => !relevant.has(p))) {
    const imported = await importedFrom(repoDir, head);
    for (const p of changed) if (imported.has(p)) relevant.add(p);
  }
  return { changed, relevant: [...relevant].sort(compare) };
}

/** Every path head's instruction files import, directly or through imported files (whether or not it exists). */
async function importedFrom(repoDir: string, head: string): Promise<Set<string>> {
  const listing = await runStatus(repoDir, ['ls-tree', '-r', '-z', '--name-only', '--full-tree', head]);
  if (listing.code !== 0) throw new Error(`git ls-tree failed: ${listing.stderr.trim()}`);
  const inTree = new Set(listing.stdout.toString('utf8').split('\0').filter((p) => p !== ''));
  const reached = new Set<string>();
  let frontier = [...inTree].filter((p) => classifyPath(p) !== null);
  for (let depth = 0; depth <= MAX_DEPTH && frontier.length > 0; depth++) {
    const next: string[] = [];
    for (const [from, token] of await importTokens(repoDir, head, frontier)) {
      for (const candidate of importCandidates(token)) {
        // Roots that match no absolute path: an absolute import is never followed from a git tree.
        const t = importTarget(from, candidate, { repo: '/\0' });
        if (t.kind !== 'file' || reached.has(t.id)) continue;
        reached.add(t.id);
        if (inTree.has(t.id)) next.push(t.id);
      }
    }
    frontier = next;
  }
  return reached;
}

/** The `@` tokens (at a word start, as parse-doc reads imports) of each of `paths` in `rev`. */
async function importTokens(repoDir: string, rev: string, paths: readonly string[]): Promise<[string, string][]> {
  const out: [string, string][] = [];
  // Chunks keep the command line far below ARG_MAX on any platform.
  for (let i = 0; i < paths.length; i += 500) {
    const chunk = paths.slice(i, i + 500).map((p) => `:(literal)${p}`);
    const r = await runStatus(repoDir, ['grep', '-I', '-z', '-o', '-E', '-e', '(^|[[:space:]])@[^[:space:]]+', rev, '--', ...chunk]);
    if (r.code === 1) continue;
    if (r.code !== 0) throw new Error(`git grep failed: ${r.stderr.trim()}`);
    for (const line of r.stdout.toString('utf8').split('\n')) {
      const nul = line.indexOf('\0');
      if (nul < 0) continue;
      const path = line.slice(rev.length + 1, nul);
      const token = line.slice(nul + 1).trim();
      if (token.startsWith('@') && token.length > 1) out.push([path, token.slice(1).replace(/\\ /g, ' ')]);
    }
  }
  return out;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
