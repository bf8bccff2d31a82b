/**
 * The bundle model: the one definition of a manifest that every writer (emit)
 * and reader (openBundle, explain, diff, registry) uses.
 *
 * - `ManifestV1` is the whole manifest in memory; on disk it is split
 *   (`encodeManifest`) into a small root, `manifest.json` (`ManifestRoot`), and
 *   parts under `parts/` — the file table, the attachments, the conflicts, the
 *   path index sharded by top-level directory and the variants sharded by id —
 *   each recorded in the root by its sha256 and size, so a reader can verify
 *   just the parts it reads. `schemas/manifest.schema.json` describes the root
 *   and, in `$defs`, each part (test/bundle-model.test.ts holds type and schema together).
 * - The bundle id hashes the root without `BUNDLE_ID_EXCLUDED` (its part
 *   digests cover every part), so it names the compiled content only. The
 *   bundle digest hashes the canonical bytes of the whole root.
 * - Which variant serves a path is answered once, in serving.ts (`variantFor`).
 * Reading and verifying manifest bytes is in parse-manifest.ts.
 */
import type { Activation, Layer, Root } from '../types.js';
import type { ConflictEvent } from '../conflicts/events.js';
import { canonicalJson } from '../util/canonical-json.js';
import { compareCodeUnits } from '../util/compare.js';
import { contentId, digestOf, sha256Hex } from '../util/hash.js';
import { CONFLICT_DETAILS_PART, CONFLICT_SOURCES_PART, conflictSources, joinConflicts, storedDetails, storedRuling, type StoredDetails, type StoredRuling } from './conflict-parts.js';

export const MANIFEST_SCHEMA_ID = 'https://rulec.dev/schemas/manifest-v3.json';

/** A source applied inside a variant or attachment, in render order. */
export interface ManifestRef {
  id: string;
  reason: string;
  imported_by?: string;
}

export interface ManifestFile {
  /** The root the file was read from, and its path there: kept apart, never parsed out of the id. */
  root: Root;
  path: string;
  sha256: string;
  size: number;
  layer: Layer;
  format: string;
  scope: string;
  activation: Activation;
  tracked: boolean;
  tokens?: number;
  globs?: string[];
  link?: string;
}

/** What one agent profile would inject for a variant. */
export interface ManifestProfileFit {
  bytes: number;
  tokens: number;
  fits: boolean;
  dropped: string[];
}

export interface ManifestVariant {
  sources: ManifestRef[];
  bytes: number;
  tokens: number;
  sha256: string;
  profiles: Record<string, ManifestProfileFit>;
}

export interface ManifestAttachment {
  sources: ManifestRef[];
  globs: string[];
  bytes: number;
  tokens: number;
  sha256: string;
}

export interface ManifestOverrun {
  kind: 'variant' | 'attachment' | 'layer';
  id: string;
  tokens: number;
  budget: number;
  layer?: Layer;
}

export interface ManifestV1 {
  schema: typeof MANIFEST_SCHEMA_ID;
  bundle_id: string;
  revision: { version: string; seq: number };
  source: { repo: string | null; commit: string | null; dirty: boolean };
  compiler: { name: 'rulec'; version: string };
  policy: { digest: string };
  tokenizer: string;
  layers: { local: boolean; user: boolean };
  files: Record<string, ManifestFile>;
  variants: Record<string, ManifestVariant>;
  attachments: Record<string, ManifestAttachment>;
  /** Directory → variant id where it differs from the parent's; '' is the root. */
  index: Record<string, string>;
  budgets: { over: ManifestOverrun[] };
  diagnostics: { errors: number; warnings: number; infos: number; codes: Record<string, number> };
  conflicts: ConflictEvent[];
}

/** Fields that describe where and when a bundle was built, not what it holds: outside the bundle id. */
export const BUNDLE_ID_EXCLUDED = ['bundle_id', 'revision', 'source'] as const;
type Provenance = (typeof BUNDLE_ID_EXCLUDED)[number];
export type ManifestContent = Omit<ManifestV1, Provenance>;

/** The tables that live in parts beside the root, not in it. */
export const PART_TABLES = ['files', 'variants', 'attachments', 'index', 'conflicts'] as const;
export type PartTable = (typeof PART_TABLES)[number];
/** What a part holds, from its name: a table (or a shard of one), or the conflict events' details or sources (conflict-parts.ts). */
export type PartKind = PartTable | typeof CONFLICT_DETAILS_PART | typeof CONFLICT_SOURCES_PART;

/** A part as the root records it: the sha256 and size of its canonical bytes. */
export interface ManifestPartRef {
  sha256: string;
  bytes: number;
}

/** manifest.json: the manifest without its tables, which it records as parts. */
export interface ManifestRoot extends Omit<ManifestV1, PartTable> {
  parts: Record<string, ManifestPartRef>;
  /** How many files context/, attachments/ and sources/ hold, so an extra or missing one is refused at open. */
  entries: { context: number; attachments: number; sources: number };
}

/** The grammar of ids that become file names inside a bundle. */
export const ID_GRAMMAR = {
  bundle: /^b-[0-9a-f]{16}$/,
  variant: /^v-[0-9a-f]{16}$/,
  attachment: /^a-[0-9a-f]{16}$/,
  part: /^(?:files|attachments|conflict-(?:details|sources)|index-[0-9a-f]{2}|(?:conflicts|variants)-[0-9a-f])$/,
} as const;

/**
 * The index part that holds directory `dir`: chosen by its top-level
 * directory, so a path's ancestors all sit in one part, '' aside.
 */
export function indexPartOf(dir: string): string {
  const slash = dir.indexOf('/');
  return `index-${sha256Hex(slash < 0 ? dir : dir.slice(0, slash)).slice(0, 2)}`;
}

/**
 * The variants part that holds variant `id`: its first hex digit, so 16 parts
 * at most and manifest.json stays small (a forged id is hashed, never used as a name).
 */
export function variantPartOf(id: string): string {
  return `variants-${typeof id === 'string' && ID_GRAMMAR.variant.test(id) ? id.slice(2, 3) : sha256Hex(String(id)).slice(0, 1)}`;
}

/** The content part of a manifest (what the bundle id hashes). */
export function contentOf(m: ManifestV1): ManifestContent {
  const content: Record<string, unknown> = { ...m };
  for (const key of BUNDLE_ID_EXCLUDED) delete content[key];
  return content as unknown as ManifestContent;
}

/** A manifest as the files that hold it. */
export interface EncodedManifest {
  root: ManifestRoot;
  /** The canonical bytes of manifest.json. */
  text: string;
  /** Part name → its canonical bytes. */
  parts: Map<string, string>;
}

/** A variants part: the variants whose id starts `v-<x>`, and for each the ids of the conflict events in its context. */
export interface VariantsPart {
  variants: Record<string, ManifestVariant>;
  conflicts: Record<string, string[]>;
}

/** The conflicts part that holds event `id`: its first hex digit, as for variants. */
export function conflictPartOf(id: string): string {
  return `conflicts-${typeof id === 'string' && /^c-[0-9a-f]{16}$/.test(id) ? id.slice(2, 3) : sha256Hex(String(id)).slice(0, 1)}`;
}

/**
 * Each part's value: the file and attachment tables whole; the index by
 * top-level directory; the variants, and the conflict events (sorted by id),
 * by the first hex digits of their ids — each event as a path reader shows
 * it, naming its sides' sources by their place in one list, its details in
 * one part of their own (conflict-parts.ts). A variant's
 * part lists its events, so a reader of one path reads only the conflict
 * parts that concern it.
 */
export function partValues(c: Pick<ManifestV1, PartTable>): Map<string, unknown> {
  const parts = new Map<string, unknown>([['files', c.files], ['attachments', c.attachments]]);
  const dict = <T>(): Record<string, T> => Object.create(null) as Record<string, T>;
  const get = <T>(name: string, map: Map<string, unknown>, make: () => T): T => {
    if (!map.has(name)) map.set(name, make());
    return map.get(name) as T;
  };
  for (const [dir, id] of Object.entries(c.index)) get(indexPartOf(dir), parts, dict<string>)[dir] = id;
  const eventsOf = new Map<string, unknown>();
  const sources = conflictSources(c.conflicts);
  const place = new Map(sources.map((s, i) => [s, i]));
  if (c.conflicts.length > 0) parts.set(CONFLICT_SOURCES_PART, sources);
  for (const e of c.conflicts) {
    get(conflictPartOf(e.id), parts, (): StoredRuling[] => []).push(storedRuling(e, place));
    // String(): a forged event without an id still encodes, and its part's schema refuses it.
    get(CONFLICT_DETAILS_PART, parts, dict<StoredDetails>)[String(e.id)] = storedDetails(e);
    for (const v of e.variants ?? []) get(v, eventsOf, (): string[] => []).push(String(e.id));
  }
  for (const [id, v] of Object.entries(c.variants)) {
    const part = get(variantPartOf(id), parts, (): VariantsPart => ({ variants: dict(), conflicts: dict() }));
    part.variants[id] = v;
    const events = eventsOf.get(id) as string[] | undefined;
    if (events) part.conflicts[id] = events;
  }
  return parts;
}

/** The tables back from part values (what `partValues` made): parts of one table merged, conflicts in part order and joined with their details. */
export function joinParts(values: ReadonlyMap<string, unknown>): Pick<ManifestV1, PartTable> {
  const dict = <T>(): Record<string, T> => Object.create(null) as Record<string, T>;
  const out: Pick<ManifestV1, PartTable> = { files: dict(), variants: dict(), attachments: dict(), index: dict(), conflicts: [] };
  const rulings: StoredRuling[] = [];
  let details: Record<string, StoredDetails> = dict();
  let sources: string[] = [];
  for (const name of [...values.keys()].sort(compareCodeUnits)) {
    const value = values.get(name);
    const kind = kindOfPart(name);
    if (kind === 'conflicts') rulings.push(...(value as StoredRuling[]));
    else if (kind === CONFLICT_DETAILS_PART) details = value as Record<string, StoredDetails>;
    else if (kind === CONFLICT_SOURCES_PART) sources = value as string[];
    else if (kind === 'variants') Object.assign(out.variants, (value as VariantsPart).variants);
    else Object.assign(out[kind], value);
  }
  out.conflicts = joinConflicts(rulings, sources, details);
  return out;
}

/** What a part holds, from its name (`index-3f` → index; conflict-details is its own kind). */
export function kindOfPart(name: string): PartKind {
  return name.replace(/-[0-9a-f]{1,2}$/, '') as PartKind;
}

/** The root without provenance (what the bundle id hashes) and the canonical bytes of every part. */
function encodeContent(c: ManifestContent): { head: Omit<ManifestRoot, Provenance>; parts: Map<string, string> } {
  const { files, variants, attachments, index, conflicts, ...rest } = c;
  const parts = new Map<string, string>();
  const refs: Record<string, ManifestPartRef> = Object.create(null);
  for (const [name, value] of partValues({ files, variants, attachments, index, conflicts })) {
    const text = canonicalJson(value);
    parts.set(name, text);
    refs[name] = { sha256: digestOf(text), bytes: Buffer.byteLength(text) };
  }
  const sources = new Set(Object.values(files).map((f) => f.sha256)).size;
  const entries = { context: Object.keys(variants).length, attachments: Object.keys(attachments).length, sources };
  return { head: { ...rest, parts: refs, entries }, parts };
}

/** Encodings already made, per manifest object: a manifest is never changed once sealed or parsed. */
const encoded = new WeakMap<ManifestV1, EncodedManifest>();

/** The files that hold `m`: manifest.json's bytes and each part's (computed once per manifest object). */
export function encodeManifest(m: ManifestV1): EncodedManifest {
  let e = encoded.get(m);
  if (e === undefined) {
    const { head, parts } = encodeContent(contentOf(m));
    const root: ManifestRoot = { ...head, bundle_id: m.bundle_id, revision: m.revision, source: m.source };
    encoded.set(m, (e = { root, text: canonicalJson(root), parts }));
  }
  return e;
}

export function bundleIdOf(content: ManifestContent): string {
  return bundleIdOfCanonical(canonicalJson(encodeContent(content).head));
}

/** The bundle id of a root without provenance, already in canonical JSON. */
export function bundleIdOfCanonical(canonicalContent: string): string {
  return contentId('b-', canonicalContent);
}

/** Seal content into a manifest: derive the bundle id and attach provenance. */
export function sealManifest(content: ManifestContent, revision: ManifestV1['revision'], source: ManifestV1['source']): ManifestV1 {
  const { head, parts } = encodeContent(content);
  const bundle_id = bundleIdOfCanonical(canonicalJson(head));
  const manifest: ManifestV1 = { ...content, bundle_id, revision, source };
  const root: ManifestRoot = { ...head, bundle_id, revision, source };
  encoded.set(manifest, { root, text: canonicalJson(root), parts });
  return manifest;
}

/** The exact bytes of manifest.json (the root, canonical JSON, RFC 8785). */
export function manifestBytes(manifest: ManifestV1): string {
  return encodeManifest(manifest).text;
}

/** `sha256:` + sha256 of the canonical root bytes (manifest.json), which pin every part by digest. */
export function bundleDigest(manifest: ManifestV1): string {
  return digestOf(manifestBytes(manifest));
}
