/**
 * What a reader of one path needs from a manifest, asked table by table:
 * `explain` and `openBundle().contextFor()` answer through this, so a bundle
 * can serve it by reading only the parts a path needs (lazy-manifest.ts),
 * and a manifest held in memory (a fresh compile) by looking it up.
 *
 * Attachment globs: only an attachment with a glob that could match the path
 * (its literal base holds the path, its literal last segment or extension
 * ends it) is compiled — compiling all 2,000 of a monorepo's globs took
 * longer than everything else explain did; and a glob whose text starts with
 * a directory that does not hold the path is not even scanned.
 */
import { rulingView, type ConflictRuling } from './conflict-parts.js';
import { compileGlob } from '../resolve/glob-compile.js';
import { extensionOf, globShape, isLiteralSegment, literalDir } from '../resolve/glob-shape.js';
import { isWithin } from '../util/posix-path.js';
import { servingDirBy } from './serving.js';
import { type ManifestAttachment, type ManifestFile, type ManifestV1, type ManifestVariant, type PartTable } from './model.js';

export interface ManifestLookup {
  /** Everything but the tables: ids, provenance, policy, layers, budgets, diagnostic counts. */
  head: Omit<ManifestV1, PartTable>;
  /** Whether `dir` has its own entry in the path index. */
  indexes(dir: string): boolean;
  /** The variant id the index records for `dir`, when it has its own entry. */
  indexEntry(dir: string): string | undefined;
  variant(id: string): ManifestVariant | undefined;
  files(): Readonly<Record<string, ManifestFile>>;
  attachments(): Readonly<Record<string, ManifestAttachment>>;
  /** The conflict events in variant `id`'s context, sorted by id, as a path reader shows them. */
  conflictsOf(id: string): ConflictRuling[];
}

const own = <T>(o: Readonly<Record<string, T>>, k: string): T | undefined => (Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined);

/** A lookup over a manifest held in memory. */
export function lookupOf(m: ManifestV1): ManifestLookup {
  const { files, variants, attachments, index, conflicts, ...head } = m;
  return {
    head,
    indexes: (dir) => own(index, dir) !== undefined,
    indexEntry: (dir) => own(index, dir),
    variant: (id) => own(variants, id),
    files: () => files,
    attachments: () => attachments,
    conflictsOf: (id) => conflicts.filter((e) => e.variants.includes(id)).map(rulingView),
  };
}

/** The index directory serving `path` and its variant id (throws RangeError when the index has no root entry). */
export function servingVariant(l: ManifestLookup, path: string): { dir: string; variant: string } {
  const dir = servingDirBy((d) => l.indexes(d), path);
  const variant = l.indexEntry(dir);
  if (variant === undefined) throw new RangeError('bundle index has no root entry');
  return { dir, variant };
}

/**
 * Whether `glob` could match `path`, decided without compiling it: the path
 * must lie under the glob's literal base, and end with the glob's last
 * segment when that is a literal name or `*.ext` (the shapes most rules use).
 * A glob the index would not narrow (negated, escapes, quotes) may match anything.
 */
function mayMatch(glob: string, path: string): boolean {
  // Most globs of a repository lie under another directory: told from their text, before the scan.
  if (!isWithin(path, literalDir(glob))) return false;
  const shape = shapeOf(glob);
  if (shape === null) return true;
  if (!isWithin(path, shape.base)) return false;
  const last = shape.segments[shape.segments.length - 1] ?? '';
  if (last === '' || path === shape.base) return true;
  if (isLiteralSegment(last)) return path.endsWith(`/${last}`) || path === last;
  const ext = extensionOf(last);
  return ext === undefined || path.endsWith(`.${ext}`);
}

/**
 * Globs remembered per process, across bundles: a runtime that opens bundle after bundle keeps
 * at most this many shapes and matchers (then starts over), not every glob it ever saw.
 */
const MAX_REMEMBERED_GLOBS = 10_000;

function remember<V>(cache: Map<string, V>, glob: string, value: V): V {
  if (cache.size >= MAX_REMEMBERED_GLOBS) cache.clear();
  cache.set(glob, value);
  return value;
}

/** Each glob's shape, scanned once: rules repeat the same globs. */
const shapes = new Map<string, ReturnType<typeof globShape>>();

function shapeOf(glob: string): ReturnType<typeof globShape> {
  const shape = shapes.get(glob);
  return shape === undefined ? remember(shapes, glob, globShape(glob)) : shape;
}

/**
 * Compiled matchers by glob: compiled only when a glob's base holds a path asked about. A
 * repository's rules repeat the same globs (`**\/*.ts` in dozens of them), compiled once.
 * A glob that does not compile (never in a bundle rulec built) matches nothing.
 */
const compiled = new Map<string, (path: string) => boolean>();

function matches(glob: string, path: string): boolean {
  let test = compiled.get(glob);
  if (test === undefined) {
    const c = compileGlob(glob);
    test = remember(compiled, glob, c.ok ? c.test : () => false);
  }
  return test(path);
}

/** The attachments whose globs match `path`, in id order. */
export function attachmentsMatching(attachments: Readonly<Record<string, ManifestAttachment>>, path: string): [string, ManifestAttachment][] {
  return Object.entries(attachments).filter(([, a]) => a.globs.some((g) => mayMatch(g, path) && matches(g, path)));
}
