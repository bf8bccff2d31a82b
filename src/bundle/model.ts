/**
 * The bundle model: the one definition of a manifest that every writer (emit)
 * and reader (openBundle, explain, diff, registry) uses.
 *
 * - `ManifestV1` mirrors `schemas/manifest.schema.json` field for field
 *   (test/bundle-model.test.ts holds the two together).
 * - The bundle id hashes the compiled content only: every field but
 *   `BUNDLE_ID_EXCLUDED`. The bundle digest hashes the canonical bytes of the
 *   whole manifest.
 * - `variantFor(index, path)` is the one answer to "which variant serves this path".
 * Reading and verifying manifest bytes is in parse-manifest.ts.
 */
import type { Activation, Layer, Root } from '../types.js';
import type { ConflictEvent } from '../conflicts/events.js';
import { canonicalJson } from '../util/canonical-json.js';
import { contentId, digestOf } from '../util/hash.js';
import { dirnameOf } from '../util/posix-path.js';

export const MANIFEST_SCHEMA_ID = 'https://rulec.dev/schemas/manifest-v1.json';

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

/** The grammar of ids that become file names inside a bundle. */
export const ID_GRAMMAR = {
  bundle: /^b-[0-9a-f]{16}$/,
  variant: /^v-[0-9a-f]{16}$/,
  attachment: /^a-[0-9a-f]{16}$/,
} as const;

/** The content part of a manifest (what the bundle id hashes). */
export function contentOf(m: ManifestV1): ManifestContent {
  const content: Record<string, unknown> = { ...m };
  for (const key of BUNDLE_ID_EXCLUDED) delete content[key];
  return content as unknown as ManifestContent;
}

export function bundleIdOf(content: ManifestContent): string {
  return bundleIdOfCanonical(canonicalJson(content));
}

/** The bundle id of content already in canonical JSON. */
export function bundleIdOfCanonical(canonicalContent: string): string {
  return contentId('b-', canonicalContent);
}

/** Seal content into a manifest: derive the bundle id and attach provenance. */
export function sealManifest(content: ManifestContent, revision: ManifestV1['revision'], source: ManifestV1['source']): ManifestV1 {
  return { ...content, bundle_id: bundleIdOf(content), revision, source };
}

/** The exact bytes of manifest.json (canonical JSON, RFC 8785). */
export function manifestBytes(manifest: ManifestV1): string {
  return canonicalJson(manifest);
}

/** `sha256:` + sha256 of the canonical manifest bytes. */
export function bundleDigest(manifest: ManifestV1): string {
  return digestOf(manifestBytes(manifest));
}

/**
 * The index directory whose variant serves `path`: the path itself when it is
 * an indexed directory, else its nearest indexed ancestor ('' is always indexed).
 */
export function servingDir(index: ManifestV1['index'], path: string): string {
  const has = (d: string): boolean => Object.prototype.hasOwnProperty.call(index, d);
  let dir = has(path) ? path : dirnameOf(path);
  while (dir !== '' && !has(dir)) dir = dirnameOf(dir);
  return dir;
}

/** The id of the variant that serves `path` (repo-relative posix, '' for the root). */
export function variantFor(index: ManifestV1['index'], path: string): string {
  const dir = servingDir(index, path);
  const id = Object.prototype.hasOwnProperty.call(index, dir) ? index[dir] : undefined;
  if (id === undefined) throw new RangeError('bundle index has no root entry');
  return id;
}

/** A caller's path in the index's spelling: posix separators, no `./`, no trailing `/`. */
export function normaliseBundlePath(path: string): string {
  return path.replace(/\\/g, '/').replace(/^(\.\/)+/, '').replace(/\/+$/, '').replace(/^\.$/, '');
}
