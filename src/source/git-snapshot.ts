/**
 * The git facts discovery needs. All queries run concurrently: on a
 * 100k-file tree each is a separate walk or index read, and waiting on them
 * one by one was most of discovery's wall time.
 */
import { gitBatch } from './git-batch.js';
import { runStatus } from './git-run.js';
import { formatPathspecs } from '../formats/formats.js';

export interface GitInfo {
  /** Remote URL of origin (credentials removed), or null. */
  remote: string | null;
  commit: string | null;
  /** True when an input file (instruction file or import) differs from HEAD or is untracked. */
  dirty: boolean;
  /** Commits reachable from HEAD: a per-branch monotonically increasing sequence. */
  seq: number;
}

export interface GitSnapshot {
  tracked: string[];
  /** Blob id of each tracked path in the index. */
  indexBlobs: Map<string, string>;
  /** Paths staged with changes against HEAD. */
  staged: Set<string>;
  /** Untracked, not ignored instruction files (new files not yet added). */
  untracked: string[];
  /**
   * Instruction and personal files that git ignores (agents do not read
   * .gitignore), found by name; discovery keeps those whose scope governs
   * tracked paths.
   */
  ignored: string[];
  remote: string | null;
  commit: string | null;
  seq: number;
}

/**
 * The git facts of the work tree at `dir`, or null when `dir` is not in one
 * (no repository, a bare one, inside `.git`, an owner git does not trust).
 * Six queries at once, by one shell (git-batch.ts): whether this is a work
 * tree and its HEAD, the index, the untracked instruction files, the remote,
 * what is staged and the commit count — so node spawns once, twice when there
 * are untracked instruction files (check-ignore). `git
 * status` is avoided on purpose: it refreshes the stat of every tracked
 * file, which costs more than the whole floor on a large tree; dirtiness is
 * decided per input file from index blob ids instead (see discover).
 */
export async function gitSnapshot(dir: string): Promise<GitSnapshot | null> {
  // New files not yet added, personal ones too: a CLAUDE.local.md nobody put in .gitignore is
  // still loaded by its agent, so lint must see it (and --include-local bundle it).
  const instruction = formatPathspecs(true);
  // One shell runs the six questions side by side (git-batch.ts): one fork of this process, not six
  // (a fork copies the page tables of the process that forks: the larger its heap, the dearer).
  const { results, stderr } = await gitBatch(dir, [
    // Is this a work tree, and its HEAD: "<top level>\n<HEAD>\n"; without commits, the top level
    // alone (exit 1, no message); outside a work tree nothing.
    ['rev-parse', '--show-toplevel', '--verify', '-q', 'HEAD'],
    ['ls-files', '-z', '--cached', '--stage'],
    // Every untracked instruction file, ignored or not, in one walk: git descends into ignored
    // directories to list ignored files anyway, and a second walk for the not ignored ones cost as
    // much again. Which of them git ignores is asked below, of those few paths alone.
    ['ls-files', '-z', '--others', '--', ...instruction],
    ['config', '--get', 'remote.origin.url'],
    // Without a commit these two fail, and answer nothing staged and a count of 0. `--` after
    // HEAD: a file named HEAD in the work tree would make it ambiguous.
    ['diff', '--cached', '--name-only', '-z', '--relative', 'HEAD', '--'],
    ['rev-list', '--count', 'HEAD', '--'],
  ]);
  const text = (i: number): string => results[i]?.stdout.toString('utf8') ?? '';
  const answered = (i: number): boolean => results[i]?.code === 0;
  // Not a work tree (no repository, a bare one, inside .git, an owner git does not trust).
  const probe = text(0);
  if (probe.trim() === '') return null;
  const commit = probe.split('\n')[1]?.trim() || null;
  if (!answered(1) || !answered(2)) throw new Error(`git ls-files failed: ${stderr.trim()}`);
  const remote = answered(3) ? stripCredentials(text(3).trim()) || null : null;
  const staged = commit !== null && answered(4) ? splitZ(text(4)) : [];
  const count = commit !== null && answered(5) ? Number(text(5).trim()) : 0;
  const found = splitZ(text(2));
  const ignoredSet = await ignoredAmong(dir, found);
  const tracked: string[] = [];
  const indexBlobs = new Map<string, string>();
  for (const entry of splitZ(text(1))) {
    // "<mode> <blob> <stage>\t<path>"
    const tab = entry.indexOf('\t');
    const path = entry.slice(tab + 1);
    if (!indexBlobs.has(path)) tracked.push(path);
    indexBlobs.set(path, entry.slice(7, tab - 2));
  }
  return {
    tracked, indexBlobs, staged: new Set(staged),
    untracked: found.filter((p) => !ignoredSet.has(p)), ignored: found.filter((p) => ignoredSet.has(p)),
    remote, commit, seq: Number.isSafeInteger(count) ? count : 0,
  };
}

/**
 * Which of these untracked paths git ignores (.gitignore, info/exclude,
 * core.excludesFile — what `--exclude-standard` reads). `check-ignore` exits
 * 1 when none is, which is an answer, not an error. Through git-run.ts's
 * runStatus: the paths go to git's stdin (NUL-separated, so no name is
 * quoted or split).
 */
async function ignoredAmong(dir: string, paths: readonly string[]): Promise<Set<string>> {
  if (paths.length === 0) return new Set();
  // check-ignore reads each path as a pathspec: a name that starts with `:` (`:!x/AGENTS.md`) would
  // be magic, refused or read as another path. `./` before it makes it a plain path (and comes back).
  const r = await runStatus(dir, ['check-ignore', '-z', '--stdin'], paths.map((p) => `./${p}\0`).join(''));
  if (r.code !== 0 && r.code !== 1) throw new Error(`git check-ignore failed: ${r.stderr.trim()}`);
  return new Set(splitZ(r.stdout.toString('utf8')).map((p) => (p.startsWith('./') ? p.slice(2) : p)));
}

function splitZ(out: string): string[] {
  return out.split('\0').filter((p) => p.length > 0);
}

/** A remote URL without the user and password some CI systems embed in it. */
export function stripCredentials(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, '$1');
}
