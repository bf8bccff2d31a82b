/**
 * Codes for reading and verifying a built bundle (RC70xx; the registry uses
 * RC71xx and up), and `bundleDiag`, which the bundle reader reports them with:
 * a runtime that opens a bundle loads these entries, not the whole catalogue.
 */
import type { CatalogueEntry } from './catalogue-entry.js';
import { diagnosticOf, type Diagnostic, type DiagnosticInit } from './diagnostic-shape.js';

export const BUNDLE_CODES: CatalogueEntry[] = [
  { code: 'RC7001', severity: 'error', title: 'bundle file unreadable',
    hint: 'rebuild the bundle with rulec build',
    explanation: 'A file the bundle must hold (manifest.json, a context or an attachment listed in the manifest) is missing or cannot be read. The bundle is refused: a runtime never serves a partial bundle.' },
  { code: 'RC7002', severity: 'error', title: 'manifest is not canonical JSON',
    explanation: 'manifest.json or a part is not valid JSON in valid UTF-8, holds a number that is not a safe integer (1.5, 1e20) or values nested deeper than any manifest, or is not in the canonical form rulec writes (RFC 8785 key order, no whitespace). Its digest would not be reproducible, so the bundle is refused.' },
  { code: 'RC7003', severity: 'error', title: 'manifest does not match its schema',
    explanation: 'manifest.json does not validate against schemas/manifest.schema.json (a missing field, a wrong type, or an id that does not match its grammar such as v- and 16 hex digits). Ids become file names, so a manifest that is not exactly of this shape is never trusted.' },
  { code: 'RC7004', severity: 'error', title: 'bundle id does not match the content',
    explanation: 'The bundle_id in manifest.json is not the content id of the rest of the manifest (sha256 of everything but bundle_id, revision and source). The manifest was edited after it was built.' },
  { code: 'RC7005', severity: 'error', title: 'bundle digest is not the pinned one',
    explanation: 'The caller pinned a bundle digest (openBundle expectDigest, a registry admission) and the manifest on disk hashes to another one. The bundle was replaced or modified.' },
  { code: 'RC7006', severity: 'error', title: 'bundle file does not match its digest',
    hint: 'rebuild the bundle; never edit a bundle by hand',
    explanation: 'A context or attachment file differs from the size and sha256 the manifest records for it. The file was tampered with or corrupted; nothing from the bundle is served.' },
  { code: 'RC7007', severity: 'error', title: 'unexpected entry in a bundle',
    explanation: 'The bundle directory holds something the manifest does not list: an extra file, a directory where a file belongs, or a symbolic link. Every file of a bundle must be a regular file inside the bundle directory, named by the manifest.' },
  { code: 'RC7008', severity: 'error', title: 'invalid current pointer',
    hint: 'run rulec build to rewrite <out>/current',
    explanation: 'The current file in a bundles directory must hold one bundle id (b- and 16 hex digits) naming a bundle directory beside it. Anything else (a path, a link, another directory) is refused, so the pointer can never lead outside the bundles directory.' },
];

/** A diagnostic of bundle code `code` (RC70xx); the same as `diag(code, init)`. */
export function bundleDiag(code: string, init: DiagnosticInit): Diagnostic {
  const entry = BUNDLE_CODES.find((e) => e.code === code);
  if (entry === undefined) throw new Error(`not a bundle diagnostic code ${code}`);
  return diagnosticOf(entry, init);
}
