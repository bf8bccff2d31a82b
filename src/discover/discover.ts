/**
 * Discovery: the only stage that reads the repository.
 *
 * 1. Resolve the repo root (realpath). In a git work tree, the paths are the
 *    tracked files (`git ls-files`) plus untracked, not ignored instruction
 *    files (new ones not yet added); otherwise walk the tree in sorted order,
 *    skipping policy `discover.walk_ignore` names. Policy excludes and rulec's
 *    own output (output-dir.ts) are never inputs.
 * 2. Ask git for the instruction and personal files it ignores: agents do not
 *    read .gitignore. Keep those whose scope governs a path of the repository
 *    (an ignored `.claude/` or GEMINI.md at the root, an ignored AGENTS.md
 *    beside tracked files); an ignored tree with nothing tracked in it
 *    (node_modules, build output) is not the repository, so its AGENTS.md
 *    files are not reported.
 * 3. Classify every path against the format table; give each instruction file
 *    its base layer (local when personal or ignored; repo at the root; path below).
 *    Local files are listed but not read unless --include-local (one RC1004
 *    note names them).
 * 4. Read each file through readConfined(): the real path of the whole path
 *    must stay inside its root, only regular files are opened, oversize files
 *    are refused unread.
 * 5. Read the managed directory (every .md file, sorted) as the managed layer.
 * 6. Report paths that collide by letter case with an instruction file.
 * 7. Record, as data, what is excluded (exclusions.ts) and which repo files
 *    differ from HEAD (dirty.ts), with the index facts that judge files read
 *    later (imports): the result holds no function, so it can be cached.
 * With a `source` (a commit's tree, src/source), steps 1 and 4 list and read
 * that tree instead of the work tree (src/source confines its reads as
 * readConfined does); nothing is untracked, ignored or dirty, so step 2 is moot.
 */
import { statSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import type { FormatName, Layer, SourceFile, StageResult } from '../types.js';
import type { Policy } from '../config/policy.js';
import { diag, type Diagnostic } from '../diagnostics/diagnostic.js';
import { UsageError } from '../util/errors.js';
import { compareCodeUnits } from '../util/compare.js';
import { pushAll } from '../util/push-all.js';
import { lowerBound, unionSorted } from '../util/sorted.js';
import { classifyPath } from '../formats/formats.js';
import { startGitSnapshot, type GitInfo } from '../source/git-snapshot.js';
import { dirtyIds, type HeadIndex } from './dirty.js';
import { excluder, exclusionsOf, type Exclusions } from './exclusions.js';
import { reachedExcluded, repoReader } from './repo-reader.js';
import type { RepoSource } from '../source/repo-source.js';
import { walkTree } from './walk.js';
import { readManaged, readUserFiles } from './outer-layers.js';
import { source, undecodableNames } from './source-file.js';
import type { UndecodableNames } from '../util/path-bytes.js';
import { realPath } from '../util/real-path.js';

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
  /** Instruction files git ignores that discovery kept (local layer, unreviewed), sorted. */
  ignored: string[];
  /** What is not an input (policy discover.exclude, the bundle output directory): ask excluder(). */
  exclusions: Exclusions;
  /** Ids of the repo files whose bytes differ from what git holds at HEAD, in file order. */
  dirty: string[];
  /** The index facts dirtiness is judged by, for files read later (imports); null without git. */
  head: HeadIndex | null;
}

export async function discover(options: DiscoverOptions): Promise<StageResult<Discovered>> {
  const rootReal = realDir(options.repoDir, 'repository');
  const managedDir = options.managedDir ?? options.policy.managed.dir;
  const managedReal = managedDir ? realDir(resolvePath(rootReal, managedDir), 'managed') : null;
  const diagnostics: Diagnostic[] = [];

  const tree = options.source ?? null;
  const listing = tree ? await tree.listing() : null;
  const gitAnswers = tree ? null : startGitSnapshot(rootReal);
  const index = gitAnswers ? await gitAnswers.index : null;
  // Names that are not UTF-8: listed under a decoded string no read finds; reported, not passed over.
  const walkedUndecodable: UndecodableNames = new Map();
  const tracked = listing ? listing.paths : index ? index.tracked : walkTree(rootReal, options.policy.discover.walk_ignore, walkedUndecodable);
  const readRepo = repoReader(rootReal, tree);
  const exclusions = exclusionsOf(rootReal, options.outDir, options.policy.discover.exclude);
  const isExcluded = excluder(exclusions);
  const maxBytes = options.policy.discover.max_file_bytes;
  const formats = options.policy.formats;
  const isRead = (kind: Kind): boolean => kind.layer !== 'local' || options.includeLocal;
  // The tracked paths are classified, and their instruction files read, while git still walks the
  // work tree for untracked ones (startGitSnapshot); the loop below takes both, in its own order.
  const trackedPaths = tracked.filter((p) => !isExcluded(p)).sort(compareCodeUnits);
  const kinds = new Map<string, Kind>();
  for (const path of trackedPaths) {
    const kind = kindOf(path, false, formats);
    if (kind) kinds.set(path, kind);
  }
  const early = new Map([...kinds].filter(([, kind]) => isRead(kind)).map(([path]) => [path, readRepo(path, path, maxBytes)]));
  const snap = gitAnswers ? await gitAnswers.snapshot : null;
  const untracked = (snap?.untracked ?? []).filter((p) => !isExcluded(p)).sort(compareCodeUnits);
  const paths = unionSorted([trackedPaths, untracked]);
  const ignoredPaths = (snap?.ignored ?? []).filter((p) => !isExcluded(p));

  const files: SourceFile[] = [];
  const localExcluded: string[] = [];
  const ignored: string[] = [];
  const unclassified = new Set(untracked);
  const undecodable = snap?.undecodable ?? listing?.undecodable ?? walkedUndecodable;
  const candidates = [...paths.map((p) => ({ path: p, isIgnored: false })), ...ignoredPaths.map((p) => ({ path: p, isIgnored: true }))];
  for (const { path, isIgnored } of candidates) {
    const kind = isIgnored || unclassified.has(path) ? kindOf(path, isIgnored, formats) : kinds.get(path);
    if (!kind) continue;
    if (isIgnored) {
      if (!governsPaths(paths, kind.scope)) continue;
      ignored.push(path);
    }
    if (!isRead(kind)) {
      localExcluded.push(path);
      continue;
    }
    const read = early.get(path) ?? readRepo(path, path, maxBytes);
    pushAll(diagnostics, undecodableNames(undecodable.get(path)));
    if (reachedExcluded(read, path, isExcluded)) continue;
    if (!read.ok) {
      if (!read.missing) diagnostics.push(read.diagnostic);
      continue;
    }
    files.push(source('repo', path, kind.format, kind.layer, kind.scope, read.bytes, read.realRel, snap === null || snap.indexBlobs.has(path)));
  }
  if (managedReal) files.push(...readManaged(managedReal, maxBytes, diagnostics));
  if (options.userHome) files.push(...readUserFiles(realDir(options.userHome, 'home'), maxBytes, diagnostics));
  pushAll(diagnostics, caseCollisions(paths, files));
  files.sort((a, b) => compareCodeUnits(a.id, b.id));
  localExcluded.sort(compareCodeUnits);
  ignored.sort(compareCodeUnits);
  if (localExcluded.length > 0) diagnostics.push(localNote(localExcluded));
  const head = snap === null ? null : { blobs: snap.indexBlobs, staged: snap.staged };
  const dirty = dirtyIds(files, head);
  const git = listing ? listing.git : snap === null ? null : { remote: snap.remote, commit: snap.commit, seq: snap.seq, dirty: dirty.length > 0 };
  return { value: { rootReal, managedReal, files, paths, git, localExcluded, ignored, exclusions, dirty, head }, diagnostics };
}


/** True when scope directory `scope` ('' = root) holds at least one of the sorted `paths`. */
function governsPaths(paths: readonly string[], scope: string): boolean {
  if (scope === '') return paths.length > 0;
  const i = lowerBound(paths, `${scope}/`);
  return i < paths.length && (paths[i] as string).startsWith(`${scope}/`);
}

/** An instruction file's format, scope and base layer. */
interface Kind {
  format: FormatName;
  scope: string;
  layer: Layer;
}

/** What a candidate path is to discovery: null when it is not an instruction file of an enabled format. */
function kindOf(path: string, isIgnored: boolean, formats: Policy['formats']): Kind | null {
  const c = classifyPath(path);
  if (!c || (c.spec.family !== null && !formats[c.spec.family])) return null;
  return { format: c.spec.name, scope: c.scope, layer: c.spec.personal || isIgnored ? 'local' : c.scope === '' ? 'repo' : 'path' };
}

function realDir(dir: string, what: string): string {
  let real: string;
  try {
    real = realPath(dir);
  } catch {
    throw new UsageError(`${what} directory not found: ${dir}`);
  }
  if (!statSync(real).isDirectory()) throw new UsageError(`${what} path is not a directory: ${dir}`);
  return real;
}

/** RC1004: the local files left out (sorted), the first three by name. */
function localNote(files: readonly string[]): Diagnostic {
  const shown = files.slice(0, 3).join(', ') + (files.length > 3 ? ` and ${files.length - 3} more` : '');
  return diag('RC1004', { file: '', message: `${files.length} local file${files.length === 1 ? '' : 's'} not included: ${shown}` });
}

/** Paths equal to an instruction file's path but for letter case. */
function caseCollisions(paths: readonly string[], files: readonly SourceFile[]): Diagnostic[] {
  const instruction = new Set(files.filter((f) => f.root === 'repo').map((f) => f.rel.toLowerCase()));
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

