/**
 * Where an `@path` import points (pure). Ids are those of SourceFile: a
 * repo-relative path, `managed:<rel>` or `user:<rel>`. An import never leaves
 * the root of the file that makes it; `@~/` is honoured only in managed and
 * user files, and only when the user root is known.
 */
import { dirnameOf, isWithin, resolveRelative, toPosix } from '../util/posix-path.js';

export interface ImportRoots {
  /** Absolute posix paths, used only to map absolute imports onto ids. */
  repo: string;
  managed?: string;
  home?: string;
}

export type ImportTarget =
  | { kind: 'file'; id: string }
  | { kind: 'outside'; why: string };

const ROOT_PREFIX: Record<string, string> = { managed: 'managed:', user: 'user:' };

function splitId(id: string): { root: 'repo' | 'managed' | 'user'; rel: string } {
  if (id.startsWith('managed:')) return { root: 'managed', rel: id.slice(8) };
  if (id.startsWith('user:')) return { root: 'user', rel: id.slice(5) };
  return { root: 'repo', rel: id };
}

export function importTarget(fromId: string, target: string, roots: ImportRoots): ImportTarget {
  const from = splitId(fromId);
  const prefix = ROOT_PREFIX[from.root] ?? '';
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
    if (abs !== null && rootAbs && isWithin(abs, rootAbs) && abs !== rootAbs) return { kind: 'file', id: prefix + abs.slice(rootAbs.length + 1) };
    return { kind: 'outside', why: 'absolute path outside the root' };
  }
  const rel = resolveRelative(dirnameOf(from.rel), target);
  if (rel === null || rel === '') return { kind: 'outside', why: `resolves above the ${from.root === 'repo' ? 'repository' : from.root} root` };
  return { kind: 'file', id: prefix + rel };
}

/** Trailing punctuation that prose puts after a path ("See @AGENTS.md."). */
const TRAILING = /[.,;:!?)\]}'"]+$/;

/** Candidate spellings of an import token: as written, then without trailing punctuation. */
export function importCandidates(target: string): string[] {
  const stripped = target.replace(TRAILING, '');
  return stripped && stripped !== target ? [target, stripped] : [target];
}

/**
 * Whether an unresolved token was meant as a file. Agents ignore `@name`
 * tokens that resolve to nothing (mentions, decorators), so only path-like
 * tokens are worth a diagnostic.
 */
export function looksLikePath(target: string): boolean {
  const t = target.replace(TRAILING, '');
  return t.includes('/') || /\.(md|mdc|markdown|txt)$/i.test(t);
}
