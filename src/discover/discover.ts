/**
 * Discovery: the only stage that reads the repository.
 *
 * 1. Resolve the repo root (realpath). In a git work tree, the paths are the
 *    tracked files (`git ls-files`) plus untracked, not ignored instruction
 *    files (new ones not yet added); otherwise walk the tree in sorted order,
 *    skipping policy `discover.walk_ignore` names.
 * 2. Ask git explicitly for ignored personal files (CLAUDE.local.md,
 *    AGENTS.override.md, .claude/rules/**\/*.local.md): they are never tracked.
 * 3. Classify every path against the format table; give each instruction file
 *    its base layer (local when personal or ignored; repo at the root; path below).
 *    Local files are listed but not read unless --include-local.
 * 4. Read each file under its root: symlinks must stay inside the root,
 *    oversize files are refused unread.
 * 5. Read the managed directory (every .md file, sorted) as the managed layer.
 * 6. Report paths that collide by letter case with an instruction file.
 * With a `source` (a commit's tree, src/source), steps 1 and 4 list and read
 * that tree instead of the work tree; nothing is untracked, ignored or dirty.
 */
import { createHash } from 'node:crypto';
import { realpathSync, statSync } from 'node:fs';
import picomatch from 'picomatch';
import { isAbsolute, join, relative, resolve as resolvePath, sep } from 'node:path';
import type { FormatName, Layer, Root, SourceFile, StageResult } from '../types.js';
import type { Policy, FormatFamily } from '../config/policy.js';
import { diag, type Diagnostic } from '../diagnostics/diagnostic.js';
import { UsageError } from '../diagnostics/errors.js';
import { compareCodeUnits } from '../util/compare.js';
import { classifyPath } from './formats.js';
import { gitAt, gitSnapshot, workTreeTop, type GitInfo, type GitSnapshot } from './git.js';
import { readUnderRoot, type ReadOutcome } from './read-source.js';
import type { RepoSource } from '../source/repo-source.js';
import { walkTree } from './walk.js';

export interface DiscoverOptions {
  repoDir: string;
  managedDir?: string | null;
  includeLocal: boolean;
  policy: Policy;
  /** Absolute directory where bundles are written; its contents are never inputs. */
  outDir?: string;
  /** The user's home directory, when the personal user layer is wanted (explain only). */
  userHome?: string | null;
  /** Where the repository's files come from; default: the work tree at repoDir. */
  source?: RepoSource | null;
}

export interface Discovered {
  /** Absolute real paths of the roots: used for reading only, never hashed. */
  rootReal: string;
  managedReal: string | null;
  files: SourceFile[];
  /** Every work-tree path (tracked + untracked, not ignored), sorted. */
  paths: string[];
  git: GitInfo | null;
  /** Local-layer files present but left out (no --include-local). */
  localExcluded: string[];
  /** Paths that are not inputs (policy discover.exclude, the bundle output directory). */
  isExcluded(path: string): boolean;
  /** Whether a repo file's bytes differ from what git holds at HEAD. */
  isDirty(file: SourceFile): boolean;
  /** Read a repository file (from the work tree or the source), confined to the repository. */
  readRepo(rel: string, id: string, maxBytes: number): ReadOutcome;
}

const FAMILY: Record<FormatName, FormatFamily | null> = {
  'agents-override': 'agents', agents: 'agents', claude: 'claude', 'claude-dot': 'claude', 'claude-local': 'claude',
  'claude-rule': 'claude', 'claude-rule-local': 'claude', gemini: 'gemini', copilot: 'copilot',
  'copilot-instructions': 'copilot', 'cursor-rule': 'cursor', cursorrules: 'cursor', managed: null, user: null, import: null,
};

export async function discover(options: DiscoverOptions): Promise<StageResult<Discovered>> {
  const rootReal = realDir(options.repoDir, 'repository');
  const managedDir = options.managedDir ?? options.policy.managed.dir;
  const managedReal = managedDir ? realDir(resolvePath(rootReal, managedDir), 'managed') : null;
  const diagnostics: Diagnostic[] = [];

  const tree = options.source ?? null;
  const listing = tree ? await tree.listing() : null;
  const top = tree ? null : await workTreeTop(rootReal);
  const snap = top === null ? null : await gitSnapshot(gitAt(rootReal));
  const tracked = listing ? listing.paths : snap ? snap.tracked : walkTree(rootReal, options.policy.discover.walk_ignore);
  const readRepo = (rel: string, id: string, max: number): ReadOutcome => (tree ? fromSource(tree.read(rel, id, max), rel) : readUnderRoot(rootReal, rel, id, max));
  const byPolicy = excludeMatcher(options.policy.discover.exclude);
  const outPrefix = outputPrefix(rootReal, options.outDir);
  const isExcluded = (p: string): boolean => (outPrefix !== null && p.startsWith(outPrefix)) || byPolicy(p);
  const paths = [...new Set([...tracked, ...(snap?.untracked ?? [])])].filter((p) => !isExcluded(p)).sort(compareCodeUnits);
  const ignoredLocal = (snap?.ignoredLocal ?? []).filter((p) => !isExcluded(p));

  const files: SourceFile[] = [];
  const localExcluded: string[] = [];
  const maxBytes = options.policy.discover.max_file_bytes;
  const candidates = [...paths.map((p) => ({ path: p, ignored: false })), ...ignoredLocal.map((p) => ({ path: p, ignored: true }))];
  for (const { path, ignored } of candidates) {
    const c = classifyPath(path);
    const family = c ? FAMILY[c.spec.name] : null;
    if (!c || (family && !options.policy.formats[family])) continue;
    const layer: Layer = c.spec.personal || ignored ? 'local' : c.scope === '' ? 'repo' : 'path';
    if (layer === 'local' && !options.includeLocal) {
      localExcluded.push(path);
      continue;
    }
    const read = readRepo(path, path, maxBytes);
    if (!read.ok) {
      if (!read.missing) diagnostics.push(read.diagnostic);
      continue;
    }
    files.push(source(path, path, 'repo', c.spec.name, layer, c.scope, read.bytes, read.linkTarget, snap === null || snap.indexBlobs.has(path)));
  }
  if (managedReal) files.push(...readManaged(managedReal, maxBytes, diagnostics));
  if (options.userHome) files.push(...readUserFiles(realDir(options.userHome, 'home'), maxBytes, diagnostics));
  diagnostics.push(...caseCollisions(paths, files));
  files.sort((a, b) => compareCodeUnits(a.id, b.id));
  localExcluded.sort(compareCodeUnits);
  const git = listing ? listing.git : snap === null ? null : { remote: snap.remote, commit: snap.commit, seq: snap.seq, dirty: false };
  return {
    value: { rootReal, managedReal, files, paths, git, localExcluded, isExcluded, isDirty: snap ? dirtyCheck(snap) : () => false, readRepo },
    diagnostics,
  };
}

/** A source's read in the shape readUnderRoot answers (a link's real path as linkTarget). */
function fromSource(r: ReturnType<RepoSource['read']>, rel: string): ReadOutcome {
  if (!r.ok) return r;
  return r.realRel === rel ? { ok: true, bytes: r.bytes } : { ok: true, bytes: r.bytes, linkTarget: r.realRel };
}

/**
 * A repo input is dirty when git does not hold exactly its bytes at HEAD:
 * untracked, staged with changes, or its blob id differs from the index.
 * (A symlink is judged by the file it points to.)
 */
function dirtyCheck(snap: GitSnapshot): (file: SourceFile) => boolean {
  return (file) => {
    if (file.root !== 'repo' || file.linkTarget !== undefined) return false;
    const blob = snap.indexBlobs.get(file.rel);
    if (blob === undefined || snap.staged.has(file.rel)) return true;
    return gitBlobId(file.bytes) !== blob;
  };
}

function gitBlobId(bytes: Uint8Array): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

/** The bundle output directory as a repo-relative prefix, when it lies inside the repository. */
function outputPrefix(rootReal: string, outDir: string | undefined): string | null {
  if (!outDir) return null;
  let real: string;
  try {
    real = realpathSync(outDir);
  } catch {
    real = resolvePath(outDir);
  }
  const rel = relative(rootReal, real);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return null;
  return `${rel.split(sep).join('/')}/`;
}

function excludeMatcher(globs: readonly string[]): (path: string) => boolean {
  if (globs.length === 0) return () => false;
  const match = picomatch([...globs], { dot: true });
  return (path) => match(path);
}

function realDir(dir: string, what: string): string {
  let real: string;
  try {
    real = realpathSync(dir);
  } catch {
    throw new UsageError(`${what} directory not found: ${dir}`);
  }
  if (!statSync(real).isDirectory()) throw new UsageError(`${what} path is not a directory: ${dir}`);
  return real;
}

export function source(id: string, rel: string, root: Root, format: FormatName, layer: Layer, scope: string,
  bytes: Uint8Array, linkTarget: string | undefined, tracked: boolean): SourceFile {
  const f: SourceFile = { id, rel, root, format, layer, scope, bytes, tracked };
  if (linkTarget !== undefined) f.linkTarget = linkTarget;
  return f;
}

function readManaged(managedReal: string, maxBytes: number, diagnostics: Diagnostic[]): SourceFile[] {
  const out: SourceFile[] = [];
  for (const rel of walkTree(managedReal, ['.git'])) {
    if (!rel.endsWith('.md')) continue;
    const id = `managed:${rel}`;
    const read = readUnderRoot(managedReal, rel, id, maxBytes, 'managed:');
    if (!read.ok) {
      if (!read.missing) diagnostics.push(read.diagnostic);
      continue;
    }
    out.push(source(id, rel, 'managed', 'managed', 'managed', '', read.bytes, read.linkTarget, true));
  }
  return out;
}

/**
 * The user layer: the personal files agents read from the home directory —
 * Claude's ~/.claude/CLAUDE.md and ~/.claude/rules, Codex's ~/.codex
 * AGENTS.override.md (else AGENTS.md), Gemini's ~/.gemini/GEMINI.md.
 */
function readUserFiles(homeReal: string, maxBytes: number, diagnostics: Diagnostic[]): SourceFile[] {
  const rules = walkTree(join(homeReal, '.claude', 'rules'), []).filter((r) => r.endsWith('.md')).map((r) => `.claude/rules/${r}`);
  const codex = ['.codex/AGENTS.override.md', '.codex/AGENTS.md'];
  const wanted = ['.claude/CLAUDE.md', ...rules, ...codex, '.gemini/GEMINI.md'];
  const out: SourceFile[] = [];
  for (const rel of wanted) {
    if (rel === '.codex/AGENTS.md' && out.some((f) => f.rel === '.codex/AGENTS.override.md')) continue;
    const id = `user:${rel}`;
    const read = readUnderRoot(homeReal, rel, id, maxBytes, 'user:');
    if (!read.ok) {
      if (!read.missing) diagnostics.push(read.diagnostic);
      continue;
    }
    out.push(source(id, rel, 'user', 'user', 'user', '', read.bytes, read.linkTarget, false));
  }
  return out;
}

/** Paths equal to an instruction file's path but for letter case. */
function caseCollisions(paths: readonly string[], files: readonly SourceFile[]): Diagnostic[] {
  const instruction = new Set(files.filter((f) => f.root === 'repo').map((f) => f.id.toLowerCase()));
  const groups = new Map<string, string[]>();
  for (const p of paths) {
    const lower = p.toLowerCase();
    if (!instruction.has(lower)) continue;
    const g = groups.get(lower);
    if (g) g.push(p);
    else groups.set(lower, [p]);
  }
  const out: Diagnostic[] = [];
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const [first, ...others] = group;
    for (const other of others) {
      out.push(diag('RC1003', { file: other, message: `path differs only in letter case from ${first}` }));
    }
  }
  return out;
}

