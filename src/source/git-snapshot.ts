/**
 * The git facts discovery needs. All queries run concurrently: on a
 * 100k-file tree each is a separate walk or index read, and waiting on them
 * one by one was most of discovery's wall time. The index comes back first,
 * so discovery can read the tracked files during git's walk.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathAfterTab, splitNames, type UndecodableNames } from '../util/path-bytes.js';
import { startGitBatch, type QueryResult } from './git-batch.js';
import { runStatus } from './git-run.js';
import { formatPathspecs } from '../formats/formats.js';
import { realPath } from '../util/real-path.js';

export interface GitInfo {
  /** Remote URL of origin (credentials removed), or null. */
  remote: string | null;
  commit: string | null;
  /** True when an input file (instruction file or import) differs from HEAD or is untracked. */
  dirty: boolean;
  /** Commits reachable from HEAD: a per-branch monotonically increasing sequence. */
  seq: number;
}

/** The index: what discovery reads first, while git still walks the work tree. */
export interface GitIndex {
  tracked: string[];
  /** Listed paths whose names are not UTF-8 (tracked or untracked), by decoded string (path-bytes.ts). */
  undecodable: UndecodableNames;
  /** Blob id of each tracked path in the index. */
  indexBlobs: Map<string, string>;
  commit: string | null;
}

export interface GitSnapshot extends GitIndex {
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
  seq: number;
}

/** The two answers of a snapshot, as they come: the index first, the whole snapshot after git's walk. */
export interface GitSnapshotStart {
  /** Null when `dir` is not in a work tree. */
  index: Promise<GitIndex | null>;
  snapshot: Promise<GitSnapshot | null>;
}

/**
 * The git facts of the work tree at `dir`, or null when `dir` is not in one
 * (no repository, a bare one, inside `.git`, an owner git does not trust).
 * `git status` is avoided on purpose: it refreshes the stat of every tracked
 * file, which costs more than the whole floor on a large tree; dirtiness is
 * decided per input file from index blob ids instead (see discover).
 */
export async function gitSnapshot(dir: string): Promise<GitSnapshot | null> {
  return startGitSnapshot(dir).snapshot;
}

/**
 * gitSnapshot(), in two steps. Six queries at once, by the process's shell
 * host (git-batch.ts, shell-host.ts: node does not fork for them; a fork
 * copies the page tables of the process that forks): whether this is a work tree and its
 * HEAD, the index, the untracked instruction files, the remote, what is staged
 * and the commit count. The first two answer in tens of milliseconds, so
 * discovery reads the tracked instruction files while git still walks the
 * work tree for untracked ones (0.4 s on 100,000 files). A second request
 * asks which untracked ones are ignored (check-ignore), when there are any.
 */
export function startGitSnapshot(dir: string): GitSnapshotStart {
  // Where git cannot find a repository, asking it costs seven processes for a null.
  if (!mayBeInRepository(dir)) return { index: Promise.resolve(null), snapshot: Promise.resolve(null) };
  // New files not yet added, personal ones too: a CLAUDE.local.md nobody put in .gitignore is
  // still loaded by its agent, so lint must see it (and --include-local bundle it).
  const instruction = formatPathspecs(true);
  const batch = startGitBatch(dir, [
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
  const index = Promise.all([batch.each[0], batch.each[1]]).then(async ([probed, listed]) => {
    // Not a work tree (no repository, a bare one, inside .git, an owner git does not trust).
    const probe = textOf(probed);
    if (probe.trim() === '') return null;
    if (listed?.code !== 0) throw new Error(`git ls-files failed: ${(await batch.all).stderr.trim()}`);
    const tracked: string[] = [];
    const indexBlobs = new Map<string, string>();
    const undecodable: UndecodableNames = new Map();
    for (const entry of splitNames(listed?.stdout, undecodable, pathAfterTab)) {
      // "<mode> <blob> <stage>\t<path>"
      const tab = entry.indexOf('\t');
      const path = entry.slice(tab + 1);
      if (!indexBlobs.has(path)) tracked.push(path);
      indexBlobs.set(path, entry.slice(7, tab - 2));
    }
    return { tracked, indexBlobs, undecodable, commit: probe.split('\n')[1]?.trim() || null };
  });
  const snapshot = Promise.all([index, batch.all]).then(async ([idx, { results, stderr }]) => {
    if (idx === null) return null;
    const answered = (i: number): boolean => results[i]?.code === 0;
    if (!answered(2)) throw new Error(`git ls-files failed: ${stderr.trim()}`);
    const { commit } = idx;
    const remote = answered(3) ? stripCredentials(textOf(results[3]).trim()) || null : null;
    const staged = commit !== null && answered(4) ? splitZ(textOf(results[4])) : [];
    const undecodable: UndecodableNames = new Map([...idx.undecodable].map(([k, shown]) => [k, new Set(shown)]));
    // Names that decode alike are one path here (each of them is in `undecodable`).
    const found = [...new Set(splitNames(results[2]?.stdout, undecodable))];
    const ignoredSet = await ignoredAmong(dir, found);
    return {
      ...idx, undecodable, staged: new Set(staged),
      untracked: found.filter((p) => !ignoredSet.has(p)), ignored: found.filter((p) => ignoredSet.has(p)),
      remote, seq: commit !== null ? commitCount(results[5]) : 0,
    };
  });
  // A caller that stops at a failed index never awaits the snapshot: its rejection (the same
  // error) is not left unhandled.
  snapshot.catch(() => undefined);
  return { index, snapshot };
}

/** The variables that point git at a repository, or at the parts of one, wherever it runs. */
const REPOSITORY_ENV = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_COMMON_DIR', 'GIT_OBJECT_DIRECTORY'];

/**
 * False only when git cannot find a repository from `dir`: no variable
 * points it at one, and neither `dir` nor any directory above it holds a
 * `.git` (a directory, or the file of a linked work tree or submodule) or is
 * itself a git directory (HEAD, objects and refs: a bare repository, or one
 * with core.worktree). Git looks for exactly these, going up, and stops
 * earlier only (GIT_CEILING_DIRECTORIES, a file system boundary), so it then
 * finds no work tree either. Git goes up from the real path (a link to a
 * directory inside a repository is in it), and what this process cannot see,
 * git (its child, as the same user) cannot either.
 */
export function mayBeInRepository(dir: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (REPOSITORY_ENV.some((k) => env[k] !== undefined)) return true;
  let start: string;
  try {
    start = realPath(dir);
  } catch {
    return true;
  }
  for (let d = start; ; d = dirname(d)) {
    if (existsSync(join(d, '.git')) || ['HEAD', 'objects', 'refs'].every((f) => existsSync(join(d, f)))) return true;
    if (dirname(d) === d) return false;
  }
}

/** What `git rev-list --count` answered: the count, or 0 when it failed (no commit yet) or printed no safe integer. */
export function commitCount(answer: QueryResult | undefined): number {
  const n = answer?.code === 0 ? Number(textOf(answer).trim()) : NaN;
  return Number.isSafeInteger(n) ? n : 0;
}

function textOf(result: { stdout: Buffer } | undefined): string {
  return result?.stdout.toString('utf8') ?? '';
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
