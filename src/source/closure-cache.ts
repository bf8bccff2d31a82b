/**
 * The rule closure of a git tree — every path its instruction files import
 * (directly or through imported files) and every link on the way — kept
 * between `rulec check` runs, so that a pull request that changes no rule
 * file is answered without walking a 100,000-entry tree again.
 *
 * - Keyed by the tree id: git's content hash of the whole tree, so an entry
 *   can only describe the tree it names. The file also records the rules it
 *   was computed under (compiler version, format pathspecs, depth limit); any
 *   other value is a miss.
 * - Kept in the git directory (`<git-common-dir>/rulec/closures/`), never in
 *   the work tree: a pull request can commit any file into the work tree, and
 *   a forged entry there would hide an imported file's change from the check.
 * - Safe to delete. A damaged entry is ignored with a note and rewritten; a
 *   directory that cannot be written costs the next run its speed, nothing else.
 *   Entries are written to a temporary file and renamed into place.
 */
import { sha256Hex } from '../util/hash.js';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';

/** Bump when the entry's shape or the closure's meaning changes. */
const ENTRY_VERSION = 1;

export interface ClosureStore {
  /** The closure recorded for `tree`, or null (absent, damaged or computed under other rules). */
  get(tree: string): Set<string> | null;
  put(tree: string, reached: ReadonlySet<string>): void;
  /** What went wrong with the store, for stderr; never a reason to fail. */
  readonly notes: readonly string[];
}

/** A store under `gitDir` (as `git rev-parse --git-common-dir` prints it, relative to `repoDir`); `rules` names what the closure depends on. */
export function closureStore(repoDir: string, gitDir: string, rules: unknown): ClosureStore {
  const dir = join(isAbsolute(gitDir) ? gitDir : join(repoDir, gitDir), 'rulec', 'closures');
  const key = sha256Hex(JSON.stringify([ENTRY_VERSION, rules]));
  const notes: string[] = [];
  const fileOf = (tree: string): string | null => (/^[0-9a-f]{40,64}$/.test(tree) ? join(dir, `${tree}.json`) : null);
  return {
    notes,
    get(tree) {
      const file = fileOf(tree);
      if (file === null) return null;
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch {
        return null;
      }
      const reached = parseEntry(text, tree, key);
      if (reached === 'other-rules') return null;
      if (reached === null) notes.push(`ignored a damaged check cache entry (${file}); it is rebuilt`);
      return reached === null ? null : new Set(reached);
    },
    put(tree, reached) {
      const file = fileOf(tree);
      if (file === null) return;
      const tmp = `${file}.${process.pid}.tmp`;
      try {
        mkdirSync(dir, { recursive: true });
        writeFileSync(tmp, `${JSON.stringify({ key, tree, reached: [...reached].sort() })}\n`);
        renameSync(tmp, file);
      } catch (e) {
        rmSync(tmp, { force: true });
        notes.push(`cannot write the check cache in ${dir} (${(e as NodeJS.ErrnoException).code ?? 'error'}); the next check walks the tree again`);
      }
    },
  };
}

/** The entry's paths; 'other-rules' when it is sound but was computed under other rules; null when it is damaged. */
function parseEntry(text: string, tree: string, key: string): string[] | 'other-rules' | null {
  let entry: unknown;
  try {
    entry = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof entry !== 'object' || entry === null) return null;
  const { key: k, tree: t, reached } = entry as Record<string, unknown>;
  if (typeof k !== 'string' || t !== tree || !Array.isArray(reached) || !reached.every((p) => typeof p === 'string')) return null;
  return k === key ? (reached as string[]) : 'other-rules';
}
