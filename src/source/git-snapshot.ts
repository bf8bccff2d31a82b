/**
 * The git facts discovery needs, through simple-git. All queries run
 * concurrently: on a 100k-file tree each is a separate walk or index read,
 * and waiting on them one by one was most of discovery's wall time.
 */
import { simpleGit, type SimpleGit, type SimpleGitOptions } from 'simple-git';
import { queryEnv } from './git-env.js';
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
 * One concurrent round of git queries, or null when `dir` is not in a work
 * tree (the index listing fails: no repository, a bare one, inside `.git`, an
 * owner git does not trust). No query waits for another: asking first whether
 * this is a work tree, and counting commits once HEAD was known, were two more
 * processes and two more round trips. `git status` is avoided on purpose: it
 * refreshes the stat of every tracked file, which costs more than the whole
 * floor on a large tree; dirtiness is decided per input file from index blob
 * ids instead (see discover).
 */
export async function gitSnapshot(git: SimpleGit): Promise<GitSnapshot | null> {
  const q = (args: string[]): Promise<string> => git.raw(['-c', 'core.quotePath=false', ...args]);
  // New files not yet added, personal ones too: a CLAUDE.local.md nobody put in .gitignore is
  // still loaded by its agent, so lint must see it (and --include-local bundle it).
  const instruction = formatPathspecs(true);
  const none = (): null => null;
  const [index, untracked, ignored, commit, staged, remote, count] = await Promise.allSettled([
    q(['ls-files', '-z', '--cached', '--stage']),
    q(['ls-files', '-z', '--others', '--exclude-standard', '--', ...instruction]),
    // One walk, as before for personal files alone: git descends into ignored
    // directories either way, so asking for every instruction name costs no more.
    q(['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--', ...instruction]),
    q(['rev-parse', '--verify', '-q', 'HEAD']).then((s) => s.trim() || null, none),
    q(['diff', '--cached', '--name-only', '-z', '--relative', 'HEAD']).catch(() => ''),
    q(['config', '--get', 'remote.origin.url']).then((s) => stripCredentials(s.trim()) || null, none),
    // Fails, like HEAD, in a repository without commits.
    q(['rev-list', '--count', 'HEAD']).then((s) => Number(s.trim()), () => 0),
  ]);
  if (index.status === 'rejected') return null;
  // In a work tree, a listing that fails is a failure, not an empty list.
  const listed = settled(index);
  const seq = settled(commit) ? settled(count) : 0;
  const tracked: string[] = [];
  const indexBlobs = new Map<string, string>();
  for (const entry of splitZ(listed)) {
    // "<mode> <blob> <stage>\t<path>"
    const tab = entry.indexOf('\t');
    const path = entry.slice(tab + 1);
    if (!indexBlobs.has(path)) tracked.push(path);
    indexBlobs.set(path, entry.slice(7, tab - 2));
  }
  return {
    tracked, indexBlobs, staged: new Set(splitZ(settled(staged))), untracked: splitZ(settled(untracked)), ignored: splitZ(settled(ignored)),
    remote: settled(remote), commit: settled(commit), seq: Number.isSafeInteger(seq) ? seq : 0,
  };
}

/** A settled query's value; a rejected one throws its reason. */
function settled<T>(r: PromiseSettledResult<T>): T {
  if (r.status === 'rejected') throw r.reason;
  return r.value;
}

function splitZ(out: string): string[] {
  return out.split('\0').filter((p) => p.length > 0);
}

/** A remote URL without the user and password some CI systems embed in it. */
export function stripCredentials(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, '$1');
}
