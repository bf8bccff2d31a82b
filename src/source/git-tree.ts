/**
 * A commit's tree, read from git objects only: `git ls-tree -r -z -l` lists
 * it, `git cat-file --batch` reads blobs. Nothing touches the work tree or the
 * index (and GIT_OPTIONAL_LOCKS=0 keeps git from refreshing it), so any ref
 * can be compiled while the work tree holds something else.
 *
 * Reads are confined to the tree exactly as readConfined confines the work
 * tree to its root:
 * 1. A path must be a plain relative posix path (no empty, `.` or `..`
 *    segments, no NUL).
 * 2. It is resolved one component at a time (walkBeneath, the walk
 *    readConfined takes); a symlink (mode 120000, whose blob is its target)
 *    is expanded relative to its directory, at most 40 links; a step above
 *    the tree's root or an absolute target is refused
 *    (RC1002), a missing target is a broken link (RC1005).
 * 3. Only blobs are files; a submodule (gitlink) is not read. Files over the
 *    byte limit are refused unread (their size comes from the listing).
 */
import { execFileSync } from 'node:child_process';
import { queryEnv } from './git-env.js';
import { gitBatch, type BatchResult } from './git-batch.js';
import { commitCount } from './git-snapshot.js';
import { noteUndecodableEntries, pathAfterTab, type UndecodableNames } from '../util/path-bytes.js';
import { run, runStatus } from './git-run.js';
import { diag } from '../diagnostics/diagnostic.js';
import { UsageError } from '../util/errors.js';
import { lowerBound } from '../util/sorted.js';
import { walkBeneath, type Walked } from '../util/walk-beneath.js';
import type { SourceRead } from './types.js';

interface Entry {
  mode: string;
  sha: string;
  /** Bytes, or -1 when the tree was listed without sizes. */
  size: number;
}

const SYMLINK = '120000';
const GITLINK = '160000';
export class GitTree {
  private readonly blobs = new Map<string, Buffer>();

  private constructor(
    readonly repoDir: string,
    readonly commit: string,
    private readonly entries: Map<string, Entry>,
    /** Every path git lists, sorted by code unit (what `git ls-files` gives for a checkout of this commit). */
    readonly paths: string[],
    /** Commits reachable from `commit` (its seq in a manifest). */
    readonly count: number,
    /** Listed paths whose names are not UTF-8, by decoded string (path-bytes.ts): `paths` holds each decoded once. */
    readonly undecodable: UndecodableNames,
  ) {}

  /**
   * The tree of `rev` (a commit-ish) in the repository at `repoDir`. Without
   * `sizes` the listing skips blob sizes (one object lookup per file fewer on
   * a 100,000-file tree); the byte limit is then checked after a blob is read.
   * The commits reachable from it are counted in the same batch.
   */
  static async open(repoDir: string, rev: string, { sizes = true }: { sizes?: boolean } = {}): Promise<GitTree> {
    const listAndCount = (commitish: string): string[][] => [
      ['ls-tree', '-r', '-z', ...(sizes ? ['-l'] : []), '--full-tree', commitish],
      ['rev-list', '--count', commitish],
    ];
    let commit: string;
    let answers: BatchResult;
    if (OBJECT_ID.test(rev)) {
      // An object id cannot move: the commit it names, that commit's listing and its count are asked
      // side by side, through one shell (diff and check open trees by the ids they resolved).
      const { results: [peeled, ...rest], stderr } = await gitBatch(repoDir, [verifyCommit(rev), ...listAndCount(`${rev}^{commit}`)]);
      if (peeled?.code !== 0) throw new UsageError(`${rev} is not a commit in ${repoDir}`);
      commit = peeled.stdout.toString('utf8').trim();
      answers = { results: rest, stderr };
    } else {
      commit = await resolveCommit(repoDir, rev);
      answers = await gitBatch(repoDir, listAndCount(commit));
    }
    const [listed, counted] = answers.results;
    if (listed?.code !== 0) throw new Error(`git ls-tree failed: ${answers.stderr.trim()}`);
    const listing = listed.stdout;
    const entries = new Map<string, Entry>();
    const text = listing.toString('utf8');
    // "<mode> SP <type> SP <object> [SP+ <size>] TAB <path>" NUL — parsed by position: 100,000 records are a hot loop.
    for (let at = 0; at < text.length;) {
      const end = text.indexOf('\0', at);
      const stop = end < 0 ? text.length : end;
      const tab = text.indexOf('\t', at);
      const sp1 = text.indexOf(' ', at);
      const sp2 = text.indexOf(' ', sp1 + 1);
      const sp3 = text.indexOf(' ', sp2 + 1);
      const shaEnd = sp3 >= 0 && sp3 < tab ? sp3 : tab;
      const size = shaEnd === tab ? -1 : Number(text.slice(shaEnd, tab).trim().replace('-', '0'));
      entries.set(text.slice(tab + 1, stop), { mode: text.slice(at, sp1), sha: text.slice(sp2 + 1, shaEnd), size });
      at = stop + 1;
    }
    // git lists in byte order; sort by code unit (the same for ASCII, so nearly free).
    const paths = [...entries.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    // Names that are not UTF-8 decode with U+FFFD, and several can decode alike (one entry above):
    // each is noted, so discovery reports it as it does in a work tree.
    const undecodable: UndecodableNames = new Map();
    if (text.includes('\uFFFD')) noteUndecodableEntries(listing, undecodable, pathAfterTab);
    return new GitTree(repoDir, commit, entries, paths, commitCount(counted), undecodable);
  }

  /** Fetch the blobs of these paths (and of the links on their way) in one `git cat-file --batch`. */
  async prefetch(rels: readonly string[]): Promise<void> {
    const shas = [...new Set(rels.map((r) => this.entries.get(r)).filter((e): e is Entry => e !== undefined && e.mode !== GITLINK).map((e) => e.sha))]
      .filter((s) => !this.blobs.has(s));
    if (shas.length === 0) return;
    const out = await run(this.repoDir, ['cat-file', '--batch'], `${shas.join('\n')}\n`);
    this.storeBatch(out);
  }

  /** Read `rel` from the tree, confined to it (see the numbered steps above). `id` names the file in diagnostics. */
  read(rel: string, id: string, maxBytes: number): SourceRead {
    if (!plainPath(rel)) return refuse('RC1002', id, 'path is not a plain path inside its root; not loaded');
    const found = this.resolve(rel);
    switch (found.kind) {
      case 'outside': return refuse('RC1002', id, 'path leads outside its root through a symbolic link; not loaded');
      case 'broken': return refuse('RC1005', id, 'symbolic link points to a file that does not exist');
      case 'loop': return refuse('RC1005', id, 'symbolic link loop (or over 40 links); not loaded');
      default: break;
    }
    // A directory, or a submodule (gitlink), is no file to read.
    if (found.kind !== 'file' || found.value === null || found.value.mode === GITLINK) return { ok: false, missing: true };
    const tooLarge = (n: number): SourceRead => refuse('RC1006', id, `file is ${n} bytes, over the ${maxBytes}-byte read limit; not loaded`);
    if (found.value.size > maxBytes) return tooLarge(found.value.size);
    const bytes = this.blob(found.value.sha);
    return bytes.length > maxBytes ? tooLarge(bytes.length) : { ok: true, bytes, realRel: found.realRel };
  }

  /** True when `rel` names a file (blob or symlink) of the tree. */
  has(rel: string): boolean {
    return this.entries.has(rel);
  }

  /** `rel` through walkBeneath (util/walk-beneath.ts), over the listing and link blobs. */
  private resolve(rel: string): Walked<Entry | null> {
    return walkBeneath<Entry | null>(rel, (path) => {
      const entry = this.entries.get(path);
      if (entry?.mode === SYMLINK) {
        const target = this.blob(entry.sha).toString('utf8');
        return { kind: 'link', target: target.startsWith('/') || target === '' || target.includes('\0') ? 'outside' : { path: target, fromRoot: false } };
      }
      if (entry) return { kind: 'file', value: entry };
      return this.isDir(path) ? { kind: 'dir', value: null } : { kind: 'absent' };
    });
  }

  /** A directory of the tree: some path lies below it (binary search over the sorted paths). */
  private isDir(dir: string): boolean {
    const i = lowerBound(this.paths, `${dir}/`);
    return i < this.paths.length && (this.paths[i] as string).startsWith(`${dir}/`);
  }

  private blob(sha: string): Buffer {
    let b = this.blobs.get(sha);
    if (!b) {
      // Not prefetched (an import found while parsing, a link target): one synchronous batch of one.
      this.storeBatch(execFileSync('git', ['cat-file', '--batch'], { cwd: this.repoDir, env: queryEnv(), input: `${sha}\n`, maxBuffer: 1 << 30 }));
      b = this.blobs.get(sha);
      if (!b) throw new UsageError(`git object ${sha} cannot be read in ${this.repoDir}`);
    }
    return b;
  }

  /** Parse `git cat-file --batch` output: "<sha> <type> <size>\n<bytes>\n" per object. */
  private storeBatch(out: Buffer): void {
    let at = 0;
    while (at < out.length) {
      const nl = out.indexOf(0x0a, at);
      if (nl < 0) break;
      const [sha = '', type = '', size = ''] = out.subarray(at, nl).toString('utf8').split(' ');
      if (type === 'missing' || size === '') {
        at = nl + 1;
        continue;
      }
      const n = Number(size);
      if (type === 'blob') this.blobs.set(sha, out.subarray(nl + 1, nl + 1 + n));
      at = nl + 1 + n + 1;
    }
  }
}

function plainPath(rel: string): boolean {
  if (rel === '' || rel.startsWith('/') || rel.includes('\0') || rel.length > 4096) return false;
  return rel.split('/').every((s) => s !== '' && s !== '.' && s !== '..');
}

function refuse(code: string, id: string, message: string): SourceRead {
  return { ok: false, missing: false, diagnostic: diag(code, { file: id, message }) };
}

/** A full object id (SHA-1 or SHA-256). */
const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** The query that prints the commit `rev` names (and fails when it names none). */
function verifyCommit(rev: string): string[] {
  return ['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`];
}

/** The full commit id `rev` names, or a UsageError that says it names none (or that there is no repository to look in). */
export async function resolveCommit(repoDir: string, rev: string): Promise<string> {
  if (rev.startsWith('-')) throw new UsageError(`not a git revision: ${rev}`);
  // A directory git cannot be started in (missing, a file, not enterable) is the user's --repo.
  const status = (args: readonly string[]): Promise<{ code: number; stdout: Buffer }> => runStatus(repoDir, args).catch(() => {
    throw new UsageError(`repository directory not found: ${repoDir} (it does not exist, is not a directory or cannot be entered)`);
  });
  const found = await status(verifyCommit(rev));
  if (found.code === 0) return found.stdout.toString('utf8').trim();
  if ((await status(['rev-parse', '--git-dir'])).code !== 0) throw new UsageError(`not a git repository: ${repoDir}`);
  throw new UsageError(`${rev} is not a commit in ${repoDir}`);
}
