/**
 * Indexed glob matching over the path list. Matching every glob against every
 * path is O(globs × paths) — 2,000 rules on 100k files is 200M tests. Instead
 * each glob is matched only against candidates:
 *
 * 1. a literal glob is a set lookup;
 * 2. the glob's literal base directory (glob-shape.ts) narrows to a sorted range;
 * 3. a literal last segment (`README.md`) or an extension pattern (`*.ts`,
 *    `*.test.ts`, `*.{ts,tsx}`) narrows to a bucket of paths by name or suffix;
 * 4. a literal segment after the base (`m5` in `**\/m5/*.md`) narrows to the
 *    paths that have a segment of that name, when that bucket is smaller —
 *    without it, n such rules over n packages tested every `.md` path n times;
 * 5. the full matcher (glob-compile.ts) runs on what is left.
 *
 * A glob glob-shape.ts cannot narrow (a negation, an escape, a quote, a `|`
 * outside parentheses) is matched against every path.
 */
import { basenameOf, dirnameOf } from '../util/posix-path.js';
import { lowerBound, unionSorted } from '../util/sorted.js';
import { compileGlob } from './glob-compile.js';
import { extensionOf, globShape, isLiteralSegment } from './glob-shape.js';

export class PathIndex {
  readonly sorted: readonly string[];
  /** Each path's index in `sorted`. */
  private readonly position = new Map<string, number>();
  private readonly byName = new Map<string, string[]>();
  private readonly bySuffix = new Map<string, string[]>();
  /**
   * Every directory that holds a path, by its own name, ordered as the paths under them sort
   * (by `dir/`); built on first use (most globs never need it).
   */
  private dirsByName: Map<string, string[]> | null = null;

  constructor(sortedPaths: readonly string[]) {
    this.sorted = sortedPaths;
    for (const [i, p] of sortedPaths.entries()) {
      this.position.set(p, i);
      const name = basenameOf(p);
      push(this.byName, name, p);
      // From the first character: with dot: true, `*.ts` also matches the dotfile `.ts`.
      for (let i = name.indexOf('.'); i >= 0; i = name.indexOf('.', i + 1)) push(this.bySuffix, name.slice(i + 1), p);
    }
  }

  has(path: string): boolean {
    return this.position.has(path);
  }

  /** The path's index in the sorted listing, or undefined when it is not a path of it. */
  positionOf(path: string): number | undefined {
    return this.position.get(path);
  }

  /** Paths under `dir` ('' = all), from the sorted list by binary search. */
  under(dir: string): readonly string[] {
    return prefixRange(this.sorted, dir);
  }

  /** Paths named `name` under `dir`. */
  named(name: string, dir = ''): readonly string[] {
    return prefixRange(this.byName.get(name) ?? [], dir);
  }

  /** Paths whose name ends in `.suffix`, under `dir`. */
  withSuffix(suffix: string, dir = ''): readonly string[] {
    return prefixRange(this.bySuffix.get(suffix) ?? [], dir);
  }

  /**
   * Paths with a segment (a directory's name or their own) equal to `segment`, under `dir`, in
   * sorted order: the paths under each directory of that name (one that lies in another adds
   * nothing) and the files of that name. Linear in the directories and in what it returns, not
   * in every segment of every path.
   */
  withSegment(segment: string, dir = ''): readonly string[] {
    this.dirsByName ??= dirsByName(this.sorted);
    const ranges: (readonly string[])[] = [];
    let last: string | null = null;
    for (const d of this.dirsByName.get(segment) ?? []) {
      // A directory of that name at or above `dir`: every path under `dir` has the segment.
      if (dir !== '' && (d === dir || dir.startsWith(`${d}/`))) return this.under(dir);
      if ((dir !== '' && !d.startsWith(`${dir}/`)) || (last !== null && d.startsWith(`${last}/`))) continue;
      ranges.push(this.under(d));
      last = d;
    }
    // A file of that name in a directory of that name is in that directory's range already.
    const files = this.named(segment, dir).filter((p) => !p.split('/').slice(0, -1).includes(segment));
    if (files.length === 0) return ranges.length === 1 ? (ranges[0] as readonly string[]) : ranges.flat();
    return [...ranges.flat(), ...files].sort();
  }
}

/** Every ancestor directory of the paths (not the root), by its own name, each list sorted by `dir/`. */
function dirsByName(sortedPaths: readonly string[]): Map<string, string[]> {
  const dirs = new Set<string>();
  for (const p of sortedPaths) for (let d = dirnameOf(p); d !== '' && !dirs.has(d); d = dirnameOf(d)) dirs.add(d);
  const map = new Map<string, string[]>();
  for (const d of [...dirs].map((x) => `${x}/`).sort()) push(map, basenameOf(d.slice(0, -1)), d.slice(0, -1));
  return map;
}

/** The slice of a sorted list that lies under `dir`: two binary searches, no scan. */
function prefixRange(sorted: readonly string[], dir: string): readonly string[] {
  if (dir === '') return sorted;
  // Every path under `dir/` sorts between `dir/` and `dir0` ('0' follows '/').
  return sorted.slice(lowerBound(sorted, `${dir}/`), lowerBound(sorted, `${dir}0`));
}

function push(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

export type GlobMatch = { ok: true; matches: string[] } | { ok: false; error: string };

/** All paths matching `glob`, in sorted order. */
export function matchGlob(index: PathIndex, glob: string): GlobMatch {
  const compiled = compileGlob(glob);
  if (!compiled.ok) return compiled;
  const shape = globShape(glob);
  if (shape === null) return { ok: true, matches: index.sorted.filter((p) => compiled.test(p)) };
  if (shape.literal) return { ok: true, matches: index.has(glob) ? [glob] : [] };
  const { base, segments } = shape;
  const narrowed = candidatesFor(index, segments, base);
  // `src/**` also matches a file named `src` itself, so the base is a candidate too.
  const withBase = (under: readonly string[]): (readonly string[])[] => (index.has(base) ? [[base], under] : [under]);
  const buckets = narrowed?.buckets ?? withBase(index.under(base));
  const lists = narrowed?.exact ? buckets : buckets.map((bucket) => bucket.filter((p) => compiled.test(p)));
  // Each bucket is sorted; buckets may overlap (`*.{ts,d.ts}`: every .d.ts file also ends in .ts).
  return { ok: true, matches: unionSorted(lists) };
}

/**
 * Narrow by the last path segment when it is a literal name or an extension
 * pattern, or by a literal segment before it, whichever bucket is smaller;
 * each bucket is already restricted to the glob's base directory. `exact`
 * marks the commonest shapes — `**\/*.ext`, `**\/*.{a,b}`, `**\/NAME` below
 * the base — where every candidate of the last segment's buckets matches and
 * no test is needed.
 */
function candidatesFor(index: PathIndex, segments: readonly string[], base: string): { buckets: (readonly string[])[]; exact: boolean } | null {
  const byLast = lastSegmentBuckets(index, segments, base);
  const bySegment = literalSegmentBucket(index, segments, base);
  if (bySegment && (!byLast || bySegment.length < byLast.buckets.reduce((n, b) => n + b.length, 0))) return { buckets: [bySegment], exact: false };
  return byLast;
}

function lastSegmentBuckets(index: PathIndex, segments: readonly string[], base: string): { buckets: (readonly string[])[]; exact: boolean } | null {
  const last = segments[segments.length - 1] ?? '';
  const exact = segments.length === 2 && segments[0] === '**';
  if (last !== '' && isLiteralSegment(last)) return { buckets: [index.named(last, base)], exact };
  const ext = extensionOf(last);
  if (ext !== undefined) return { buckets: [index.withSuffix(ext, base)], exact };
  const braces = /^\*\.\{([^{}*?[\]()!+@/\\]+)\}$/.exec(last);
  // Two parts at least (`*.{md}` is the literal name `*.{md}` to the matcher), and no `..` (a range, `{a..c}`).
  if (braces?.[1] && braces[1].includes(',') && !braces[1].includes('..')) {
    const parts = [...new Set(braces[1].split(','))];
    if (parts.every((s) => s.length > 0)) return { buckets: parts.map((s) => index.withSuffix(s, base)), exact };
  }
  return null;
}

/**
 * The smallest bucket of a literal segment before the last one: a path the
 * glob matches has a segment of that name (a `/**` after it may match nothing,
 * so the name may be the path's own: the index holds every segment).
 */
function literalSegmentBucket(index: PathIndex, segments: readonly string[], base: string): readonly string[] | null {
  const literals = segments.slice(0, -1).filter((s) => s !== '' && s !== '.' && s !== '..' && isLiteralSegment(s));
  let best: readonly string[] | null = null;
  for (const s of literals) {
    const bucket = index.withSegment(s, base);
    if (best === null || bucket.length < best.length) best = bucket;
  }
  return best;
}
