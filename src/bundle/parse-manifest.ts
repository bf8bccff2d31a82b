/**
 * parseManifest(): manifest bytes → a typed `ManifestV1`, or the coded
 * diagnostic that says why the bytes are not one (pure).
 *
 * 1. The bytes parse as JSON and are exactly their canonical form (RFC 8785),
 *    so the digest anyone computes is the same.
 * 2. The value validates against schemas/manifest.schema.json: every field is
 *    present with its type, and every id matches its grammar before anything
 *    uses it as a file name.
 * 3. The bundle id is the content id of everything but its provenance fields.
 */
import type { ErrorObject } from 'ajv';
import { diag, type Diagnostic } from '../diagnostics/diagnostic.js';
import { canonicalJson, canonicalMembers } from '../util/canonical-json.js';
import { validate as generated } from './manifest-validator.gen.js';
import { BUNDLE_ID_EXCLUDED, bundleIdOfCanonical, type ManifestV1 } from './model.js';

export type ManifestParse = { ok: true; manifest: ManifestV1 } | { ok: false; diagnostic: Diagnostic };

const FILE = 'manifest.json';
/**
 * The schema's validator as ajv's standalone code (scripts/gen-validators.mjs): no schema
 * compile when a runtime opens a bundle.
 */
const validator = generated as unknown as ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

function validateManifest(value: unknown): ErrorObject[] | null {
  return validator(value) ? null : validator.errors ?? [];
}

export function parseManifest(bytes: Uint8Array | string): ManifestParse {
  const text = typeof bytes === 'string' ? bytes : Buffer.from(bytes).toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return refuse('RC7002', 'manifest.json is not valid JSON');
  }
  // One canonical encoding gives both the whole text (must equal the bytes) and the content's (the id).
  const members = value !== null && typeof value === 'object' && !Array.isArray(value) ? canonicalMembers(value as Record<string, unknown>) : null;
  const whole = members ? `{${members.map(([, t]) => t).join(',')}}` : canonicalJson(value);
  if (whole !== text) return refuse('RC7002', 'manifest.json is not in canonical form');
  const errors = validateManifest(value);
  if (errors) {
    const first = errors[0];
    const where = first?.instancePath ? first.instancePath : '(top level)';
    return refuse('RC7003', `manifest.json does not match the manifest schema: ${where} ${first?.message ?? 'is invalid'}${errors.length > 1 ? ` (and ${errors.length - 1} more)` : ''}`);
  }
  const manifest = value as ManifestV1;
  const excluded = new Set<string>(BUNDLE_ID_EXCLUDED);
  const id = bundleIdOfCanonical(`{${(members ?? []).filter(([k]) => !excluded.has(k)).map(([, t]) => t).join(',')}}`);
  if (id !== manifest.bundle_id) return refuse('RC7004', `bundle id ${manifest.bundle_id} does not match the manifest content (${id})`);
  return { ok: true, manifest };
}

function refuse(code: string, message: string): ManifestParse {
  return { ok: false, diagnostic: diag(code, { file: FILE, message }) };
}
