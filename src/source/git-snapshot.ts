/**
 * The git facts discovery needs, through simple-git. All queries run
 * concurrently: on a 100k-file tree each is a separate walk or index read,
 * and waiting on them one by one was most of discovery's wall time.
 */
import { simpleGit, type SimpleGit, type SimpleGitOptions } from 'simple-git';
import { queryEnv } from './git-env.js';
import { gitBatch } from './git-batch.js';
import { runStatus } from './git-tree.js';
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
 * simple-git checks an explicit environment for variables that let git run another program
 * (EDITOR, PAGER, GIT_SSH, GIT_CONFIG_* …) and refuses them unless allowed. rulec passes the
 * caller's own environment, which git would inherit anyway, to fixed read-only queries of its own
 * (ls-files, rev-parse, diff --name-only, config --get, rev-list), so every category is allowed.
 */
const INHERITED: SimpleGitOptions['unsafe'] = {
  allowUnsafeEditor: true, allowUnsafeAskPass: true, allowUnsafeConfigPaths: true, allowUnsafeConfigEnvCount: true,
  allowUnsafeDiffExternal: true, allowUnsafePager: true, allowUnsafeGitProxy: true, allowUnsafeTemplateDir: true,
  allowUnsafeSshCommand: true, allowUnsafeAlias: true, allowUnsafeFsMonitor: true, allowUnsafeHooksPath: true,
  allowUnsafeCredentialHelper: true, allowUnsafeDiffTextConv: true, allowUnsafeFilter: true, allowUnsafeGpgProgram: true,
  allowUnsafeMergeDriver: true, allowUnsafeProtocolOverride: true, allowUnsafePack: true,
};

/** simple-git in `dir`, with the caller's environment and rulec's pins (queryEnv). */
export function gitAt(dir: string): SimpleGit {
  return simpleGit({ baseDir: dir, binary: 'git', maxConcurrentProcesses: 6, trimmed: false, unsafe: INHERITED }).env(queryEnv());
}

/**
 * The git facts of the work tree at `dir`, or null when `dir` is not in one
 * (no repository, a bare one, inside `.git`, an owner git does not trust).
 * One question first — is this a work tree, and its HEAD — then one
 * concurrent round of five queries through one shell (git-batch.ts): a
 * directory outside git costs node one spawn, and a work tree two, three
 * when it has untracked instruction files (check-ignore). `git
 * status` is avoided on purpose: it refreshes the stat of every tracked
 * file, which costs more than the whole floor on a large tree; dirtiness is
 * decided per input file from index blob ids instead (see discover).
 */
export async function gitSnapshot(dir: string): Promise<GitSnapshot | null> {
  const git = gitAt(dir);
  const q = (args: string[]): Promise<string> => git.raw(['-c', 'core.quotePath=false', ...args]);
  // "<top level>\n<HEAD>\n"; without commits, the top level alone (exit 1, no message).
  const probe = await q(['rev-parse', '--show-toplevel', '--verify', '-q', 'HEAD']).catch(() => null);
  if (probe === null || probe.trim() === '') return null;
  const commit = probe.split('\n')[1]?.trim() || null;
  // New files not yet added, personal ones too: a CLAUDE.local.md nobody put in .gitignore is
  // still loaded by its agent, so lint must see it (and --include-local bundle it).
  const instruction = formatPathspecs(true);
  // One shell runs the rest side by side (git-batch.ts): one fork of this process, not five.
  const { results, stderr } = await gitBatch(dir, [
    ['ls-files', '-z', '--cached', '--stage'],
    // Every untracked instruction file, ignored or not, in one walk: git descends into ignored
    // directories to list ignored files anyway, and a second walk for the not ignored ones cost as
    // much again. Which of them git ignores is asked below, of those few paths alone.
    ['ls-files', '-z', '--others', '--', ...instruction],
    ['config', '--get', 'remote.origin.url'],
    ...(commit ? [['diff', '--cached', '--name-only', '-z', '--relative', 'HEAD'], ['rev-list', '--count', 'HEAD']] : []),
  ]);
  // A query that failed answers null; without a commit the last two were not asked.
  const [index, others, remoteUrl, staged, count] = results.map((r) => (r.code === 0 ? r.stdout.toString('utf8') : null));
  if (index == null || others == null) throw new Error(`git ls-files failed: ${stderr.trim()}`);
  const remote = remoteUrl == null ? null : stripCredentials(remoteUrl.trim()) || null;
  const seq = count == null ? 0 : Number(count.trim());
  const found = splitZ(others);
  const ignoredSet = await ignoredAmong(dir, found);
  const tracked: string[] = [];
  const indexBlobs = new Map<string, string>();
  for (const entry of splitZ(index)) {
    // "<mode> <blob> <stage>\t<path>"
    const tab = entry.indexOf('\t');
    const path = entry.slice(tab + 1);
    if (!indexBlobs.has(path)) tracked.push(path);
    indexBlobs.set(path, entry.slice(7, tab - 2));
  }
  return {
    tracked, indexBlobs, staged: new Set(splitZ(staged ?? '')),
    untracked: found.filter((p) => !ignoredSet.has(p)), ignored: found.filter((p) => ignoredSet.has(p)),
    remote, commit, seq: Number.isSafeInteger(seq) ? seq : 0,
  };
}

/**
 * Which of these untracked paths git ignores (.gitignore, info/exclude,
 * core.excludesFile — what `--exclude-standard` reads). `check-ignore` exits
 * 1 when none is, which is an answer, not an error. Through git-tree's
 * runStatus, not simple-git: the paths go to git's stdin, which simple-git
 * cannot write (and NUL-separated, so no name is quoted or split).
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
