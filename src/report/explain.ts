/**
 * What applies at one path, and why — computed from a manifest alone, so a
 * built bundle and a fresh compile give the same answer (pure). The manifest
 * is asked table by table (ManifestLookup): from a bundle, only the parts this
 * path needs are read.
 */
import { attachmentsMatching, lookupOf, servingVariant, type ManifestLookup } from '../bundle/manifest-lookup.js';
import type { ConflictRuling } from '../bundle/conflict-parts.js';
import type { ManifestRef, ManifestV1 } from '../bundle/model.js';
import { formatSpec } from '../formats/formats.js';
import { compareCodeUnits } from '../util/compare.js';
import { ancestorDirs, dirnameOf, isWithin } from '../util/posix-path.js';
import { num } from './num.js';

export interface ExplainedSource {
  id: string;
  layer: string;
  format: string;
  reason: string;
  tokens: number;
  imported_by?: string;
}

export interface ExplainedConflict {
  id: string;
  kind: string;
  topic: string;
  severity: string;
  adopted: string | null;
  ruling: string;
  reason: string;
  /** The event's sides, but those in files that cannot load at this path (see `elsewhere`). */
  sides: { source: string; line: number; col: number; value: string }[];
  /** How many sides are in files that cannot load at this path: other directories' standing files, and at a file, rules whose globs do not match it. */
  elsewhere: number;
}

export interface Explanation {
  path: string;
  variant: { id: string; tokens: number; bytes: number; sha256: string };
  sources: ExplainedSource[];
  attachments: { id: string; globs: string[]; tokens: number; sources: ExplainedSource[] }[];
  not_loaded: { id: string; why: string }[];
  /** Conflict events with two sides or more at this path: for each topic, which rule won and why. */
  conflicts: ExplainedConflict[];
}

/**
 * `from`: a manifest held in memory, or a lookup that reads a bundle part by part. `directory`:
 * whether `path` is a directory, when the caller knows (the work tree does; a bundle indexes only
 * some directories).
 */
export function explainPath(from: ManifestV1 | ManifestLookup, path: string, directory?: boolean): Explanation {
  const manifest = 'conflictsOf' in from ? from : lookupOf(from);
  const files = manifest.files();
  const own = <T>(o: Readonly<Record<string, T>>, k: string): T | undefined => (Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined);
  const vid = servingVariant(manifest, path).variant;
  const v = manifest.variant(vid) ?? { sources: [], tokens: 0, bytes: 0, sha256: '' };
  const describe = (r: ManifestRef): ExplainedSource => {
    const f = own(files, r.id);
    const e: ExplainedSource = { id: r.id, layer: f?.layer ?? '?', format: f?.format ?? '?', reason: r.reason, tokens: f?.tokens ?? 0 };
    if (r.imported_by) e.imported_by = r.imported_by;
    return e;
  };
  const matching = attachmentsMatching(manifest.attachments(), path)
    .map(([id, a]) => ({ id, globs: a.globs, tokens: a.tokens, sources: a.sources.map(describe) }));
  const loaded = new Set([...v.sources.map((s) => s.id), ...matching.flatMap((a) => a.sources.map((s) => s.id))]);
  const indexed = manifest.indexes(path);
  const pathDir = indexed ? path : dirnameOf(path);
  const isDir = directory ?? indexed;
  const ancestors = new Set(ancestorDirs(pathDir));
  const notLoaded: Explanation['not_loaded'] = [];
  // A link records its final target (the whole chain followed), so files are the same
  // file exactly when their real ids are equal — whichever of them is the link.
  const realOf = (id: string): string => own(files, id)?.link ?? id;
  const loadedByReal = new Map<string, string>();
  for (const id of [...loaded].sort(compareCodeUnits)) if (!loadedByReal.has(realOf(id))) loadedByReal.set(realOf(id), id);
  const shadowedHere = shadowNotes(Object.values(files));
  // Files that cannot load here: other directories' standing files and, at a file, rules whose globs
  // do not match it. (A shadowed file on the chain is not among them: its side says what lost; nor
  // is a requested or manual rule, which an agent or a user may load anywhere.)
  const elsewhere = new Set<string>();
  for (const [id, f] of Object.entries(files).sort(([a], [b]) => compareCodeUnits(a, b))) {
    if (loaded.has(id) || f.activation === 'import') continue;
    const twin = loadedByReal.get(realOf(id));
    if (twin !== undefined) notLoaded.push({ id, why: sameFile(id, f.link, twin, realOf(twin)) });
    else if (f.activation === 'requested') notLoaded.push({ id, why: 'agent-requested rule: offered by its description, loaded only if the agent asks' });
    else if (f.activation === 'manual') notLoaded.push({ id, why: 'manual rule: never loaded automatically' });
    else if (f.activation === 'attached') {
      notLoaded.push({ id, why: `globs ${(f.globs ?? []).join(', ')} do not match this path` });
      // A directory's session reads files below it, which such a rule may match.
      if (!isDir) elsewhere.add(id);
    } else if (f.activation === 'standing' && ancestors.has(f.scope)) {
      notLoaded.push({ id, why: shadowedHere.get(`${f.format}\0${f.scope}`) ?? 'not on this path\'s chain' });
    } else if (f.activation === 'standing') {
      if (isWithin(f.scope, pathDir) && f.scope !== pathDir) notLoaded.push({ id, why: `in a subdirectory (${f.scope}): loads only for paths under it` });
      elsewhere.add(id);
    }
  }
  // A side is here unless its file is elsewhere and no file loaded here is the same file (a
  // duplicate names a linked copy by its target).
  const here = (source: string): boolean => !elsewhere.has(source) || loadedByReal.has(realOf(source));
  const conflicts = conflictsAt(manifest.conflictsOf(vid), here);
  return { path, variant: { id: vid, tokens: v.tokens, bytes: v.bytes, sha256: v.sha256 }, sources: v.sources.map(describe), attachments: matching, not_loaded: notLoaded, conflicts };
}

/**
 * An event is the repository's: a paragraph pasted into hundreds of files is one event listing
 * every copy, while one path loads a few of them. So a path lists the sides `here` and counts the
 * rest; an event with fewer than two sides here (one copy, one side of a contradiction) is not a
 * conflict here.
 */
function conflictsAt(events: readonly ConflictRuling[], here: (source: string) => boolean): ExplainedConflict[] {
  const out: ExplainedConflict[] = [];
  for (const e of events) {
    const sides = e.sides.filter((side) => here(side.source));
    if (sides.length < Math.min(2, e.sides.length)) continue;
    out.push({ id: e.id, kind: e.kind, topic: e.topic, severity: e.severity, adopted: e.adopted, ruling: e.ruling, reason: e.reason,
      sides, elsewhere: e.sides.length - sides.length });
  }
  return out;
}

/** `<format>\0<scope>` → why a file of that format there does not load: a file of a format that shadows it sits beside it. */
function shadowNotes(files: readonly { format: string; scope: string }[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of files) {
    const shadows = formatSpec(f.format)?.shadows;
    if (shadows) out.set(`${shadows.format}\0${f.scope}`, shadows.note);
  }
  return out;
}

/** Why `id` is not listed although `twin`, the same file, is: which of them is the link. */
function sameFile(id: string, link: string | undefined, twin: string, twinReal: string): string {
  if (link === twin) return `same file as ${twin} (symlink)`;
  if (link === undefined) return `same file as ${twin} (${twin} is a symlink to it)`;
  if (twinReal === twin) return `same file as ${twin} (symlink)`;
  return `same file as ${twin} (both are symlinks to ${link})`;
}

/** `notice`, when given, is printed under the path (e.g. that the path is not in the repository). */
export function formatExplanation(e: Explanation, origin: string, extra: string[] = [], notice?: string): string {
  const out = [`${e.path === '' ? '.' : e.path}`, ...(notice ? [`  ${notice}`] : []), `  variant ${e.variant.id}: ${num(e.variant.tokens)} tokens, ${num(e.variant.bytes)} bytes (${origin})`, ''];
  out.push('Standing context, loaded at session start, in this order:');
  if (e.sources.length === 0) out.push('  (none: no instruction file applies here)');
  e.sources.forEach((s, i) => {
    const indent = s.imported_by ? '     ↳ ' : '';
    out.push(`  ${String(i + 1).padStart(2)}. ${indent}${s.id}  [${s.layer}, ${s.format}]  ${num(s.tokens)} tokens — ${s.reason}`);
  });
  out.push('', 'Attachments, loaded when a matching file is read:');
  if (e.attachments.length === 0) out.push('  (none match this path)');
  for (const a of e.attachments) {
    out.push(`  ${a.id}  ${num(a.tokens)} tokens — globs ${a.globs.join(', ')}`);
    for (const s of a.sources) out.push(`      ${s.imported_by ? '↳ ' : ''}${s.id}  [${s.layer}, ${s.format}]  ${num(s.tokens)} tokens`);
  }
  if (e.conflicts.length > 0) {
    out.push('', 'Conflicts here (who wins each topic, and why):');
    for (const c of e.conflicts) {
      out.push(`  ${c.topic} — ${c.kind}, ${c.severity} (${c.id})`);
      for (const side of c.sides) out.push(`    ${side.source === c.adopted ? 'wins ' : '     '} ${side.source}:${side.line}:${side.col}  ${side.value}`);
      if (c.elsewhere > 0) out.push(`           and ${num(c.elsewhere)} more in files that do not load at this path`);
      out.push(`    ${c.ruling}: ${c.reason}`);
    }
  }
  const notes = [...e.not_loaded.map((n) => `  ${n.id} — ${n.why}`), ...extra.map((x) => `  ${x}`)];
  if (notes.length > 0) out.push('', 'Not loaded here:', ...notes);
  return `${out.join('\n')}\n`;
}
