/**
 * Reading a manifest from its bytes (pure): the root, manifest.json, and the
 * parts it pins (model.ts says which table goes in which part).
 *
 * parseManifestRoot(bytes):
 * 1. The bytes are UTF-8, parse as JSON holding only safe integers, and are
 *    exactly their canonical form (RFC 8785), so the digest anyone computes
 *    is the same.
 * 2. The value validates against schemas/manifest.schema.json: every field is
 *    present with its type, and every part name matches its grammar before
 *    anything uses it as a file name.
 * 3. The bundle id is the content id of the root without its provenance
 *    fields; the part digests in it cover every part.
 * parsePart(root, name, bytes), what a lazy reader runs on each part it reads:
 * 1. The bytes have the size and sha256 the root records for that part, so
 *    they are exactly the bytes the bundle id covers.
 * 2. They are UTF-8 and parse as JSON holding only safe integers (what
 *    canonical JSON can hold; the rest of canonical form is checked by full
 *    verification), and validate against the part's schema: every id
 *    matches its grammar before it names a file. The files part states one
 *    size per source blob (files with the same bytes share one).
 * parseManifest(files), full verification: the root and every part it lists,
 * joined into one manifest; the index has a root entry and names only listed
 * variants; encoding the joined manifest again gives back the same bytes,
 * part by part (canonical, and every entry in the part it belongs to).
 */
import type { ErrorObject } from 'ajv';
import { bundleDiag } from '../diagnostics/catalogue-bundle.js';
import type { Diagnostic } from '../diagnostics/diagnostic-shape.js';
import { canonicalJson, canonicalMembers } from '../util/canonical-json.js';
import { digestOf } from '../util/hash.js';
import { parseJsonData } from '../util/parse-json-data.js';
import * as generated from './manifest-validator.gen.js';
import { blobSizeConflict, listedParts, MANIFEST_FILE, partFile } from './layout.js';
import { BUNDLE_ID_EXCLUDED, bundleIdOfCanonical, encodeManifest, joinParts, kindOfPart, type ManifestFile, type ManifestRoot, type ManifestV1, type PartKind } from './model.js';

export type ManifestParse = { ok: true; manifest: ManifestV1 } | { ok: false; diagnostic: Diagnostic };
export type RootParse = { ok: true; root: ManifestRoot } | { ok: false; diagnostic: Diagnostic };
export type PartParse<T> = { ok: true; value: T } | { ok: false; diagnostic: Diagnostic };

type Validator = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };
/**
 * The schema's validators as ajv's standalone code (scripts/gen-validators.mjs):
 * no schema compile when a runtime opens a bundle.
 */
const VALIDATORS = generated as unknown as Record<'validate' | `validate_${PartKind}`, Validator>;
/** The validator of a part kind (`conflict-details` → validate_conflict_details). */
const validatorOf = (kind: PartKind): Validator => VALIDATORS[`validate_${kind.replace('-', '_')}` as `validate_${PartKind}`];

function schemaErrors(validator: Validator, value: unknown, file: string): Diagnostic | null {
  if (validator(value)) return null;
  const errors = validator.errors ?? [];
  const first = errors[0];
  const where = first?.instancePath ? first.instancePath : '(top level)';
  return bundleDiag('RC7003', { file, message: `${file} does not match the manifest schema: ${where} ${first?.message ?? 'is invalid'}${errors.length > 1 ? ` (and ${errors.length - 1} more)` : ''}` });
}

export function parseManifestRoot(bytes: Uint8Array | string): RootParse {
  const json = parseJsonData(bytes);
  if (!json.ok) return refuse('RC7002', MANIFEST_FILE, `manifest.json ${json.why}`);
  const { value, text } = json;
  // One canonical encoding gives both the whole text (must equal the bytes) and the content's (the id).
  const members = value !== null && typeof value === 'object' && !Array.isArray(value) ? canonicalMembers(value as Record<string, unknown>) : null;
  const whole = members ? `{${members.map(([, t]) => t).join(',')}}` : canonicalJson(value);
  if (whole !== text) return refuse('RC7002', MANIFEST_FILE, 'manifest.json is not in canonical form');
  const invalid = schemaErrors(VALIDATORS.validate, value, MANIFEST_FILE);
  if (invalid) return { ok: false, diagnostic: invalid };
  const root = value as ManifestRoot;
  const excluded = new Set<string>(BUNDLE_ID_EXCLUDED);
  const id = bundleIdOfCanonical(`{${(members ?? []).filter(([k]) => !excluded.has(k)).map(([, t]) => t).join(',')}}`);
  if (id !== root.bundle_id) return refuse('RC7004', MANIFEST_FILE, `bundle id ${root.bundle_id} does not match the manifest content (${id})`);
  return { ok: true, root };
}

/** Part `name` of a verified root, from its bytes: refused unless they are the bytes the root pins and validate. */
export function parsePart<T = unknown>(root: ManifestRoot, name: string, bytes: Uint8Array | string): PartParse<T> {
  const file = Object.prototype.hasOwnProperty.call(root.parts, name) ? partFile(name) : null;
  if (file === null) return refuse('RC7003', MANIFEST_FILE, `manifest.json lists no part ${JSON.stringify(name)}`);
  const want = root.parts[name] as ManifestRoot['parts'][string];
  const size = typeof bytes === 'string' ? Buffer.byteLength(bytes) : bytes.length;
  if (size !== want.bytes || digestOf(bytes) !== want.sha256) return refuse('RC7006', file, `${file} does not match its digest in the manifest (tampered or corrupt)`);
  const json = parseJsonData(bytes);
  if (!json.ok) return refuse('RC7002', file, `${file} ${json.why}`);
  const kind = kindOfPart(name);
  const invalid = schemaErrors(validatorOf(kind), json.value, file);
  if (invalid) return { ok: false, diagnostic: invalid };
  const conflict = kind === 'files' ? blobSizeConflict(json.value as Record<string, ManifestFile>) : null;
  return conflict ? refuse('RC7003', file, `${file} does not list one size per source blob: ${conflict}`) : { ok: true, value: json.value as T };
}

/** The bytes of manifest.json, and a reader of each part's bytes (null when the part is missing). */
export interface ManifestFiles {
  root: Uint8Array | string;
  part(name: string): Uint8Array | string | null;
}

/** The whole manifest, every part verified (full verification). */
export function parseManifest(files: ManifestFiles): ManifestParse {
  const parsedRoot = parseManifestRoot(files.root);
  if (!parsedRoot.ok) return parsedRoot;
  const root = parsedRoot.root;
  const values = new Map<string, unknown>();
  const raw = new Map<string, string>();
  for (const name of Object.keys(root.parts)) {
    const bytes = files.part(name);
    if (bytes === null) return refuse('RC7001', partFile(name), `${partFile(name)} is missing`);
    const part = parsePart(root, name, bytes);
    if (!part.ok) return part;
    values.set(name, part.value);
    raw.set(name, typeof bytes === 'string' ? bytes : Buffer.from(bytes).toString('utf8'));
  }
  const { parts: _parts, entries: _entries, ...head } = root;
  const manifest: ManifestV1 = { ...head, ...joinParts(values) };
  const index = manifest.index;
  if (!Object.prototype.hasOwnProperty.call(index, '')) return refuse('RC7003', MANIFEST_FILE, 'the manifest index has no root entry');
  const unknown = Object.values(index).find((id) => !Object.prototype.hasOwnProperty.call(manifest.variants, id));
  if (unknown !== undefined) return refuse('RC7003', MANIFEST_FILE, `the manifest index names unknown variant ${unknown}`);
  return sameEncoding(manifest, root, raw);
}

/** The joined manifest encodes back to exactly the files read: canonical parts, each entry in its own part, the counts right. */
function sameEncoding(manifest: ManifestV1, root: ManifestRoot, raw: ReadonlyMap<string, string>): ManifestParse {
  const again = encodeManifest(manifest);
  if (canonicalJson(again.root) !== canonicalJson(root)) {
    return refuse('RC7002', MANIFEST_FILE, 'manifest.json does not list the parts and entries its tables encode to (parts missing, extra or miscounted)');
  }
  for (const [name, text] of again.parts) {
    if (raw.get(name) !== text) return refuse('RC7002', partFile(name), `${partFile(name)} is not the canonical encoding of its entries (not canonical, or holding entries of another part)`);
  }
  return { ok: true, manifest };
}

function refuse(code: string, file: string, message: string): { ok: false; diagnostic: Diagnostic } {
  return { ok: false, diagnostic: bundleDiag(code, { file, message }) };
}

/**
 * parseManifest over parts fetched one by one (a registry store, where each is
 * a blob named by its digest): the root first, then every part it lists.
 */
export async function parseManifestFetched(root: Uint8Array, fetchPart: (file: string, sha256: string) => Promise<Uint8Array | null>): Promise<ManifestParse> {
  const parsed = parseManifestRoot(root);
  if (!parsed.ok) return parsed;
  const got = new Map<string, Uint8Array | null>();
  for (const [file, want] of listedParts(parsed.root)) got.set(want.id, await fetchPart(file, want.sha256));
  return parseManifest({ root, part: (name) => got.get(name) ?? null });
}
