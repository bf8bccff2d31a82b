/**
 * Helpers every profile uses: lossy UTF-8 decoding that keeps a BOM (agents
 * differ on it), the directory chain from the project root down to cwd, how
 * a path prints in an agent's framing, option readers, and the final
 * accounting (bytes, tokens, truncated) of a ProfileResult.
 */
import { countTokens } from '../validate/token-count.js';
import { parseFrontmatter } from '../parse/frontmatter.js';
import { compareCodeUnits } from '../util/compare.js';
import { lowerBound } from '../util/sorted.js';
import type { ProfileFile, ProfileResult, RepoView } from './types.js';
import { SKIP_BUDGET } from './types.js';
import { sharedValue, type ReadGroup } from './read-tracker.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

/** Decode like Rust's from_utf8_lossy / Node's Buffer.toString: each maximal invalid subsequence → U+FFFD; a BOM is kept. */
export function decodeLossy(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

export function utf8Bytes(text: string): number {
  return encoder.encode(text).length;
}

export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Unicode White_Space, as Rust's str::trim uses it (no U+FEFF, unlike JS trim). */
const RUST_WS = '\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const RUST_TRIM = new RegExp(`^[${RUST_WS}]+|[${RUST_WS}]+$`, 'g');
export function rustTrim(text: string): string {
  return text.replace(RUST_TRIM, '');
}

/** Directories from `top` down to `cwd`, both included ('' is the repo root). */
export function dirChain(cwd: string, top = ''): string[] {
  const parts = cwd === '' ? [] : cwd.split('/');
  const out = [''];
  for (let i = 0; i < parts.length; i++) out.push(parts.slice(0, i + 1).join('/'));
  return out.filter((d) => top === '' || d === top || d.startsWith(`${top}/`));
}

/**
 * Path order component by component (`sub/x` before `sub-a`, unlike plain code-unit order): what a
 * depth-first walk that sorts each directory by name yields. Claude Code without a listing and
 * Copilot CLI order rule files this way.
 */
export function byComponents(a: string, b: string): number {
  const pa = a.split('/');
  const pb = b.split('/');
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const c = compareCodeUnits(pa[i]!, pb[i]!);
    if (c !== 0) return c;
  }
  return pa.length - pb.length;
}

export function joinRel(dir: string, name: string): string {
  return dir === '' ? name : `${dir}/${name}`;
}

/** Absolute-looking display of a repo path or directory ('' = root). */
export function showRepo(view: RepoView, rel: string): string {
  let root = view.rootDisplay;
  let path = rel;
  while (path === '..' || path.startsWith('../')) {
    root = root.includes('/') ? root.slice(0, root.lastIndexOf('/')) : '';
    path = path.slice(3);
  }
  return path === '' ? root : `${root}/${path}`;
}

export function showHome(view: RepoView, rel: string): string {
  return `${view.homeDisplay}/${rel}`;
}

/**
 * The view's paths that start with `prefix`. `view.paths` is sorted, so this is
 * a binary search and a walk over the matches, never a scan of every path:
 * profiles run once per variant, and a large tree has 100k paths.
 */
export function pathsWithPrefix(view: RepoView, prefix: string): readonly string[] {
  if (prefix === '') return view.paths;
  const paths = view.paths;
  const lo = lowerBound(paths, prefix);
  let end = lo;
  while (end < paths.length && (paths[end] as string).startsWith(prefix)) end++;
  return paths.slice(lo, end);
}

/**
 * `compute(view, key)`, remembered per view and key. A profile loads once per
 * session class, thousands of them in a monorepo, and every class asks again
 * about the same root directories and files: without this, the root's rules
 * were listed, sorted and looked up once per class.
 */
export function perView<V>(compute: (view: RepoView, key: string) => V): (view: RepoView, key: string) => V {
  const memo = new WeakMap<RepoView, Map<string, { value: V; group: ReadGroup | null }>>();
  return (view, key) => {
    let m = memo.get(view);
    if (!m) memo.set(view, (m = new Map()));
    // The class that asks first computes the value; every class that uses it is said to read what
    // computing it read (read-tracker.ts), so each class's reads are complete.
    const shared = sharedValue(view, m.get(key), () => compute(view, key));
    m.set(key, shared);
    return shared.value;
  };
}

const frontmatterWith = (lenient: boolean) => perView((view, path) => {
  const text = stripBom(decodeLossy(view.read(path) ?? new Uint8Array())).replace(/\r\n?/g, '\n');
  return parseFrontmatter(path, text, lenient).value.data;
});
const strictFrontmatter = frontmatterWith(false);
const lenientFrontmatter = frontmatterWith(true);

/** Frontmatter data of a file in the view (BOM, CRLF normalised), parsed once per view and path. */
export function frontmatterOf(view: RepoView, path: string, lenient = false): Record<string, unknown> | null {
  return (lenient ? lenientFrontmatter : strictFrontmatter)(view, path) ?? null;
}

/**
 * True when `path` is a file of the view: a binary search of the sorted paths. (A set of every path
 * and directory, built per view, cost more than all the lookups: 0.3 s on 25 repositories of
 * 160,000 paths.)
 */
export function exists(view: RepoView, path: string): boolean {
  return view.paths[lowerBound(view.paths, path)] === path;
}

/** True when `path` is a file or a directory (holding files) of the view. */
export function entryExists(view: RepoView, path: string): boolean {
  const below = view.paths[lowerBound(view.paths, `${path}/`)];
  return exists(view, path) || (below !== undefined && below.startsWith(`${path}/`));
}

/** A string-or-list option (Gemini's context.fileName takes both). */
export function optionStrings(options: Record<string, unknown>, key: string, fallback: readonly string[]): string[] {
  const v = options[key];
  if (typeof v === 'string') return [v];
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v as string[];
  return [...fallback];
}

export function optionNumber(options: Record<string, unknown>, key: string, fallback: number): number {
  const v = options[key];
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.floor(v) : fallback;
}

export function optionBool(options: Record<string, unknown>, key: string, fallback: boolean): boolean {
  const v = options[key];
  return typeof v === 'boolean' ? v : fallback;
}

/** Agents bill and budget in o200k_base tokens, whatever tokenizer the policy picks for the bundle. */
export const PROFILE_ENCODING = 'o200k_base';

export function tokensOf(text: string): number {
  return countTokens(PROFILE_ENCODING, text);
}

/** A file that contributes `text` whole (after the agent's transforms). */
export function loaded(path: string, origin: ProfileFile['origin'], raw: Uint8Array, text: string, reason: string): ProfileFile {
  return { path, origin, bytes: raw.length, keptBytes: raw.length, tokens: tokensOf(text), reason };
}

export function skipped(path: string, origin: ProfileFile['origin'], bytes: number, reason: string, why: string): ProfileFile {
  return { path, origin, bytes, keptBytes: 0, tokens: 0, reason, skipped: why };
}

export function finish(
  profile: string, agentVersion: string, cwd: string, files: ProfileFile[], text: string, notes: string[],
): ProfileResult {
  const truncated = files.some((f) => f.cut !== undefined || (f.skipped?.startsWith(SKIP_BUDGET) ?? false));
  return { profile, agentVersion, cwd, files, text, bytes: utf8Bytes(text), tokens: tokensOf(text), truncated, notes };
}
