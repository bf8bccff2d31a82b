/**
 * The directories of one variant grouped into classes in which every agent
 * starts the same session, so a profile runs once per class, not once per
 * directory (a 100k-path tree has ~10k directories but few classes).
 *
 * Two directories of a variant share the canonical chain, yet an agent can
 * still see them differently:
 * 1. files rulec's model leaves out or merges but an agent reads (a Codex
 *    fallback name, QWEN.md, a nested `.git`, a symlinked AGENTS.md that the
 *    canonical model loads once), and cwd-only files (Copilot reads
 *    `.github/instructions` and `.claude/rules` of cwd but not of the
 *    directories between);
 * 2. where cwd lies relative to the files the chain imports: Claude Code
 *    drops an import (or a symlinked rule) outside cwd unless approved.
 * So a directory's key is every agent-visible entry of each directory from
 * the root down to it (1), plus which of the variant's imported sources and
 * link targets lie inside it (2). Equal keys, equal sessions.
 * Nobody starts an agent inside `.claude/` or `.cursor/` (agent
 * configuration, not a place to work): a directory there counts as a
 * session started in the directory that holds it.
 */
import { compareCodeUnits } from '../util/compare.js';
import { insideDir } from './claude-imports.js';
import type { RepoView } from './types.js';

/** File names any profile reads in a directory of the chain. */
const NAMES = ['AGENTS.override.md', 'AGENTS.md', 'CLAUDE.md', 'CLAUDE.local.md', 'GEMINI.md', 'QWEN.md', '.cursorrules', '.git'];
/** Directories any profile lists in a directory of the chain (their contents are the same for every cwd below). */
const CONTAINERS = ['.claude', '.github', '.cursor'];

export interface SessionClass {
  /** The shortest directory of the class (ties: code-unit order): where the profiles run. */
  dir: string;
  /** Work-tree paths whose directory is in the class. */
  pathCount: number;
}

/** The first characters of CONTAINERS: a segment that starts with none of them is not one. */
const CONTAINER_STARTS = new Set(CONTAINERS.map((c) => c.charCodeAt(0)));
const parentOf = (d: string): string => (d.includes('/') ? d.slice(0, d.lastIndexOf('/')) : '');

/** Where a session for paths in `dir` starts: above any `.claude`/`.cursor` segment. */
export function sessionDir(dir: string): string {
  const parts = dir === '' ? [] : dir.split('/');
  const i = parts.findIndex((p) => p === '.claude' || p === '.cursor');
  return i < 0 ? dir : parts.slice(0, i).join('/');
}

export class SessionClasses {
  private readonly chainKeys = new Map<string, string>();
  private readonly pathsPerDir = new Map<string, number>();
  /** Each directory's own agent-visible entries, as its part of a key: only directories that have some. */
  private readonly ownKeys = new Map<string, string>();

  /** `extraNames`: file names the enabled profiles' options add (fallback or context file names). */
  constructor(private readonly view: RepoView, extraNames: readonly string[], private readonly imported: ReadonlySet<string>) {
    const names = [...new Set([...NAMES, ...extraNames])];
    const order = new Map([...names, ...CONTAINERS].map((e, i) => [e, i]));
    const plain = new Set(names.filter((n) => !n.includes('/')));
    const nested = names.filter((n) => n.includes('/'));
    const seen = new Map<string, Set<string>>();
    const note = (dir: string, entry: string): void => {
      const set = seen.get(dir);
      if (set) set.add(entry);
      else seen.set(dir, new Set([entry]));
    };
    // One pass over the paths: a name is a file of its directory (exists()), a container a
    // segment below it, file or directory (entryExists()).
    for (const p of view.paths) {
      const slash = p.lastIndexOf('/');
      const d = slash < 0 ? '' : p.slice(0, slash);
      this.pathsPerDir.set(d, (this.pathsPerDir.get(d) ?? 0) + 1);
      const base = slash < 0 ? p : p.slice(slash + 1);
      if (plain.has(base)) note(d, base);
      // A configured name with a slash in it (a profile option) names a file further down.
      for (const n of nested) if (p === n || p.endsWith(`/${n}`)) note(p === n ? '' : p.slice(0, p.length - n.length - 1), n);
      for (let start = 0; ;) {
        const end = p.indexOf('/', start);
        if (CONTAINER_STARTS.has(p.charCodeAt(start))) {
          const segment = p.slice(start, end < 0 ? p.length : end);
          if (CONTAINERS.includes(segment)) note(start === 0 ? '' : p.slice(0, start - 1), segment);
        }
        if (end < 0) break;
        start = end + 1;
      }
    }
    for (const [dir, entries] of seen) {
      const own = [...entries].sort((a, b) => (order.get(a) as number) - (order.get(b) as number));
      this.ownKeys.set(dir, `${dir}:${own.join(',')}\n`);
    }
  }

  /** Step 1, memoised per directory: its own visible entries appended to its parent's key. */
  private chainKey(dir: string): string {
    let key = this.chainKeys.get(dir);
    if (key === undefined) {
      const mine = this.ownKeys.get(dir) ?? '';
      key = dir === '' ? mine : this.chainKey(parentOf(dir)) + mine;
      this.chainKeys.set(dir, key);
    }
    return key;
  }

  /** Partition `dirs` (one variant's) by session key; `canonical` are the variant's source ids. */
  classesOf(dirs: readonly string[], canonical: readonly string[]): SessionClass[] {
    const targets = [...new Set(canonical.flatMap((id) => {
      const real = this.view.realPath?.(id) ?? id;
      return [...(this.imported.has(id) ? [id] : []), ...(real !== id ? [real] : [])];
    }))];
    const byKey = new Map<string, SessionClass>();
    for (const listed of dirs) {
      const dir = sessionDir(listed);
      const inside = targets.filter((t) => insideDir(t, dir)).join(',');
      const key = `${this.chainKey(dir)}|${inside}`;
      const count = this.pathsPerDir.get(listed) ?? 0;
      const c = byKey.get(key);
      if (!c) byKey.set(key, { dir, pathCount: count });
      else {
        c.pathCount += count;
        if (dir.length < c.dir.length || (dir.length === c.dir.length && compareCodeUnits(dir, c.dir) < 0)) c.dir = dir;
      }
    }
    return [...byKey.values()];
  }
}
