/**
 * The git facts discovery needs, through simple-git. All queries run
 * concurrently: on a 100k-file tree each is a separate walk or index read,
 * and waiting on them one by one was most of discovery's wall time.
 */
import { simpleGit, type SimpleGit } from 'simple-git';
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

export function gitAt(dir: string): SimpleGit {
  // The environment is inherited as is: simple-git refuses an explicit env that
  // carries EDITOR and similar variables, and rulec parses no localised output.
  return simpleGit({ baseDir: dir, binary: 'git', maxConcurrentProcesses: 6, trimmed: false });
}

/** The work-tree top level containing `dir`, or null when `dir` is not in a work tree. */
export async function workTreeTop(dir: string): Promise<string | null> {
  try {
    const top = await gitAt(dir).raw(['rev-parse', '--show-toplevel']);
    return top.trim() || null;
  } catch {
    return null;
  }
}

/**
 * One concurrent round of git queries. `git status` is avoided on purpose: it
 * refreshes the stat of every tracked file, which costs more than the whole
 * floor on a large tree; dirtiness is decided per input file from index blob
 * ids instead (see discover).
 */
export async function gitSnapshot(git: SimpleGit): Promise<GitSnapshot> {
  const q = (args: string[]): Promise<string> => git.raw(['-c', 'core.quotePath=false', ...args]);
  // New files not yet added, personal ones too: a CLAUDE.local.md nobody put in .gitignore is
  // still loaded by its agent, so lint must see it (and --include-local bundle it).
  const instruction = formatPathspecs(true);
  const [index, untracked, ignored, commit, staged, remote] = await Promise.all([
    q(['ls-files', '-z', '--cached', '--stage']),
    q(['ls-files', '-z', '--others', '--exclude-standard', '--', ...instruction]),
    // One walk, as before for personal files alone: git descends into ignored
    // directories either way, so asking for every instruction name costs no more.
    q(['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--', ...formatPathspecs(true)]),
    q(['rev-parse', '--verify', '-q', 'HEAD']).then((s) => s.trim() || null, () => null),
    q(['diff', '--cached', '--name-only', '-z', '--relative', 'HEAD']).catch(() => ''),
    q(['config', '--get', 'remote.origin.url']).then((s) => stripCredentials(s.trim()) || null, () => null),
  ]);
  const seq = commit ? Number((await q(['rev-list', '--count', 'HEAD'])).trim()) : 0;
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
    tracked, indexBlobs, staged: new Set(splitZ(staged)), untracked: splitZ(untracked), ignored: splitZ(ignored),
    remote, commit, seq: Number.isSafeInteger(seq) ? seq : 0,
  };
}

function splitZ(out: string): string[] {
  return out.split('\0').filter((p) => p.length > 0);
}

/** A remote URL without the user and password some CI systems embed in it. */
export function stripCredentials(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, '$1');
}
