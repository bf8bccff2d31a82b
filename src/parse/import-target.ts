/**
 * Where an `@path` import points (pure). A source is placed by its root and
 * root-relative path — never by parsing its id — and so is the target. An
 * import never leaves the root of the file that makes it; `@~/` is honoured
 * only in managed and user files, and only when the user root is known.
 * A token longer than any path the file system accepts is refused before it
 * is split, so its size never drives work.
 */
import type { Root } from '../types.js';
import { dirnameOf, isWithin, resolveRelative, toPosix } from '../util/posix-path.js';
import { sourceId } from '../util/source-id.js';

export interface ImportRoots {
  /** Absolute posix paths, used only to map absolute imports onto ids. */
  repo: string;
  managed?: string;
  home?: string;
}

/** A file's place: which root, and its posix path below it. */
export interface SourcePlace {
  root: Root;
  rel: string;
}

export type ImportTarget =
  | { kind: 'file'; root: Root; rel: string; id: string }
  | { kind: 'outside'; why: string }
  | { kind: 'invalid'; why: string };

/** Linux PATH_MAX and NAME_MAX: no agent can open a longer path, so none is followed. */
export const MAX_IMPORT_CHARS = 4096;
const MAX_SEGMENT_BYTES = 255;

const ROOT_NAME: Record<Root, string> = { repo: 'repository', managed: 'managed', user: 'user' };

export function importTarget(from: SourcePlace, target: string, roots: ImportRoots): ImportTarget {
  const invalid = invalidWhy(target);
  if (invalid !== null) return { kind: 'invalid', why: invalid };
  if (target.startsWith('~/')) {
    if (from.root === 'repo') return { kind: 'outside', why: '@~/ imports are only allowed in managed and user files' };
    if (!roots.home) return { kind: 'outside', why: 'the home directory is not part of this build (pass --include-user)' };
    return { kind: 'outside', why: 'imports from the home directory are not read' };
  }
  if (target.startsWith('/')) {
    // Normalise `.`, `..` and empty segments first: `/repo/../etc/x` is not inside `/repo`.
    const norm = resolveRelative('', toPosix(target));
    const abs = norm === null ? null : `/${norm}`;
    const rootAbs = from.root === 'managed' ? roots.managed : from.root === 'user' ? roots.home : roots.repo;
    if (abs !== null && rootAbs && isWithin(abs, rootAbs) && abs !== rootAbs) return file(from.root, abs.slice(rootAbs.length + 1));
    return { kind: 'outside', why: 'absolute path outside the root' };
  }
  const rel = resolveRelative(dirnameOf(from.rel), target);
  if (rel === null || rel === '') return { kind: 'outside', why: `resolves above the ${ROOT_NAME[from.root]} root` };
  return file(from.root, rel);
}

function file(root: Root, rel: string): ImportTarget {
  return { kind: 'file', root, rel, id: sourceId(root, rel) };
}

/** Why a token cannot name a file at all (too long for any file system), or null. */
function invalidWhy(target: string): string | null {
  if (target.length > MAX_IMPORT_CHARS) return `is ${target.length} characters long, over the ${MAX_IMPORT_CHARS}-character path limit`;
  let start = 0;
  for (let i = 0; i <= target.length; i++) {
    if (i < target.length && target.charCodeAt(i) !== 0x2f) continue;
    // A UTF-8 character is at most 4 bytes (2 UTF-16 units for 4), so only long segments need counting.
    if (i - start > MAX_SEGMENT_BYTES / 4 && Buffer.byteLength(target.slice(start, i)) > MAX_SEGMENT_BYTES) {
      return `has a path segment over the ${MAX_SEGMENT_BYTES}-byte file-name limit`;
    }
    start = i + 1;
  }
  return null;
}

/** Trailing punctuation that prose puts after a path ("See @AGENTS.md."). */
const TRAILING = new Set('.,;:!?)]}\'"');

/** `target` without its trailing punctuation: a scan from the end (a `[…]+$` regex is quadratic on long runs). */
function stripTrailing(target: string): string {
  let end = target.length;
  while (end > 0 && TRAILING.has(target.charAt(end - 1))) end--;
  return target.slice(0, end);
}

/** Candidate spellings of an import token: as written, then without trailing punctuation. */
export function importCandidates(target: string): string[] {
  const stripped = stripTrailing(target);
  return stripped && stripped !== target ? [target, stripped] : [target];
}

const SYSTEM_DIR = /^\/(etc|home|Users|root|var|usr|proc|sys|dev|tmp|opt|private|mnt|Volumes)\//;

/**
 * Whether an unresolved token was meant as a file. Agents ignore `@name`
 * tokens that resolve to nothing, so only tokens an author evidently meant as
 * a file are worth a diagnostic: a document name (`.md`, `.mdc`, `.markdown`,
 * `.txt`), an explicitly relative path (`./`, `../`, `~/`), or an absolute
 * path into a system directory (`/etc/…`, `/home/…`: an agent would load it,
 * so it is reported even though rulec never reads it). A slash alone
 * is not enough: on real repositories those tokens are npm scopes
 * (`@testing-library/react`), path aliases (`@/mocks`), mentions in links
 * (`[@user](https://…)`) and tags (`@Bug/@Maintain`), never a broken import.
 */
export function looksLikePath(target: string): boolean {
  const t = stripTrailing(target);
  if (t.includes('](') || t.includes('://')) return false;
  return /\.(md|mdc|markdown|txt)$/i.test(t) || /^(\.\.?|~)\//.test(t) || SYSTEM_DIR.test(t);
}
