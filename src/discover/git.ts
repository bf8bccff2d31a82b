/** The git facts discovery needs, through simple-git. */
import { simpleGit, type SimpleGit } from 'simple-git';

export interface GitInfo {
  /** Remote URL of origin (credentials removed), or null. */
  remote: string | null;
  commit: string | null;
  /** True when an input file (instruction file or import) differs from HEAD or is untracked. */
  dirty: boolean;
  /** Paths git reports as changed or untracked, relative to the repo directory. */
  changed: string[];
  /** Commits reachable from HEAD: a per-branch monotonically increasing sequence. */
  seq: number;
}

export function gitAt(dir: string): SimpleGit {
  // The environment is inherited as is: simple-git refuses an explicit env that
  // carries EDITOR and similar variables, and rulec parses no localised output.
  return simpleGit({ baseDir: dir, binary: 'git', maxConcurrentProcesses: 4, trimmed: false });
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

function splitZ(out: string): string[] {
  return out.split('\0').filter((p) => p.length > 0);
}

/** Tracked plus untracked-but-not-ignored paths, relative to `dir`. */
export async function listWorkTree(git: SimpleGit): Promise<{ tracked: string[]; untracked: string[] }> {
  const [tracked, untracked] = await Promise.all([
    git.raw(['-c', 'core.quotePath=false', 'ls-files', '-z', '--cached']),
    git.raw(['-c', 'core.quotePath=false', 'ls-files', '-z', '--others', '--exclude-standard']),
  ]);
  return { tracked: splitZ(tracked), untracked: splitZ(untracked) };
}

/** Git-ignored personal files, found explicitly by name. */
export async function listIgnoredLocal(git: SimpleGit): Promise<string[]> {
  const out = await git.raw(['-c', 'core.quotePath=false', 'ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--',
    ':(glob)**/CLAUDE.local.md', ':(glob)**/AGENTS.override.md', ':(glob)**/.claude/rules/**/*.local.md']);
  return splitZ(out);
}

/**
 * Commit, remote and sequence, plus the paths `git status` reports (relative
 * to the repo directory); the caller decides which of them make the build dirty.
 */
export async function gitInfo(git: SimpleGit): Promise<GitInfo> {
  const commit = await git.raw(['rev-parse', '--verify', '-q', 'HEAD']).then((s) => s.trim() || null, () => null);
  const seq = commit ? Number((await git.raw(['rev-list', '--count', 'HEAD'])).trim()) : 0;
  const status = await git.raw(['--no-optional-locks', 'status', '--porcelain', '-z', '--untracked-files=all', '--', '.']).catch(() => '');
  const remote = await git.raw(['config', '--get', 'remote.origin.url']).then((s) => stripCredentials(s.trim()) || null, () => null);
  const prefix = (await git.raw(['rev-parse', '--show-prefix']).catch(() => '')).trim();
  const changed = statusPaths(status).filter((p) => p.startsWith(prefix)).map((p) => p.slice(prefix.length));
  return { remote, commit, dirty: false, changed, seq: Number.isSafeInteger(seq) ? seq : 0 };
}

/** Paths in `git status --porcelain -z` output (repo-top relative); a rename lists both names. */
function statusPaths(out: string): string[] {
  const fields = out.split('\0');
  const paths: string[] = [];
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i] ?? '';
    if (f.length < 4) continue;
    paths.push(f.slice(3));
    if (f[0] === 'R' || f[0] === 'C') paths.push(fields[++i] ?? '');
  }
  return paths;
}

function stripCredentials(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, '$1');
}
