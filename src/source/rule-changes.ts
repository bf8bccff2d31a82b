/**
 * Which paths changed between two commits, and which of them can change the
 * bundle — `rulec check`'s fast path, so it must answer without compiling,
 * without the tokenizer and without reading the work tree:
 *
 * 1. `git diff --name-only --no-renames base head` (simple-git): the changed
 *    paths, a rename as the old and the new path.
 * 2. A path counts when it is an instruction file (the format table), the
 *    policy file, or lies in a managed directory inside the repository.
 * 3. Any other changed path counts when an `@` import in a Markdown file of
 *    base or head may name it: one `git grep` over both trees for `@` tokens
 *    that end with its file name. This over-approximates (a match is compiled,
 *    never missed); an import that names a file without its name
 *    (`@./`) is not one agents resolve.
 */
import { simpleGit } from 'simple-git';
import { REPO_POLICY_PATH } from '../config/repo-policy-path.js';
import { classifyPath } from '../discover/formats.js';
import { basenameOf, isWithin } from '../util/posix-path.js';
import { runStatus } from './git-tree.js';

export interface RuleChanges {
  /** Every changed path, sorted. */
  changed: string[];
  /** Those that can change the bundle, sorted. */
  relevant: string[];
}

export async function ruleChanges(repoDir: string, base: string, head: string, options: { policyFile?: string; managedDirs?: readonly string[] } = {}): Promise<RuleChanges> {
  const out = await simpleGit({ baseDir: repoDir, trimmed: false }).raw(['--no-optional-locks', '-c', 'core.quotePath=false', 'diff', '--name-only', '-z', '--no-renames', '--no-ext-diff', base, head, '--']);
  const changed = out.split('\0').filter((p) => p !== '').sort(compare);
  const policyFile = options.policyFile ?? REPO_POLICY_PATH;
  const managed = options.managedDirs ?? [];
  const relevant = new Set(changed.filter((p) => p === policyFile || classifyPath(p) !== null || managed.some((d) => isWithin(p, d))));
  const rest = changed.filter((p) => !relevant.has(p));
  if (rest.length > 0) for (const p of await importedAmong(repoDir, [base, head], rest)) relevant.add(p);
  return { changed, relevant: [...relevant].sort(compare) };
}

/** The paths among `candidates` that an `@` token in a Markdown file of any of `revs` may import. */
async function importedAmong(repoDir: string, revs: readonly string[], candidates: readonly string[]): Promise<string[]> {
  const names = [...new Set(candidates.map(basenameOf))];
  // One ERE alternation over the names; git grep reads both trees from objects.
  const pattern = `@[^[:space:]]*(${names.map(escapeEre).join('|')})`;
  const found = await runStatus(repoDir, ['grep', '-I', '-h', '-o', '-E', '-e', pattern, ...revs, '--', '*.md', '*.mdc']);
  // Status 1 is "no match"; any failure counts every candidate (a change is compiled, never missed).
  if (found.code === 1) return [];
  if (found.code !== 0) return [...candidates];
  const tokens = found.stdout.toString('utf8').split('\n').filter((t) => t !== '').map((t) => t.replace(/[.,;:!?)\]}'"]+$/, ''));
  return candidates.filter((p) => {
    const name = basenameOf(p);
    return tokens.some((t) => t === `@${name}` || t.endsWith(`/${name}`) || t === `@${p}`);
  });
}

function escapeEre(s: string): string {
  return s.replace(/[.[\]()*+?{}|^$\\]/g, '\\$&');
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
