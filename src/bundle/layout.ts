/**
 * Where each file of a bundle lives, and the `current` pointer beside bundles.
 * An id becomes a file name only after it matches its grammar, so no name
 * from a manifest can reach outside the bundle directory.
 */
import { InternalError } from '../diagnostics/errors.js';
import { ID_GRAMMAR, type ManifestV1 } from './model.js';

export const MANIFEST_FILE = 'manifest.json';
export const CONTEXT_DIR = 'context';
export const ATTACHMENT_DIR = 'attachments';
/** `<out>/current` holds the id of the bundle last built in `<out>`. */
export const CURRENT_POINTER = 'current';
/** Every entry a bundle directory may hold at its top level. */
export const BUNDLE_TOP_LEVEL: readonly string[] = [MANIFEST_FILE, CONTEXT_DIR, ATTACHMENT_DIR];

export type EntryKind = 'variant' | 'attachment';

/** Bundle-relative posix path of a variant's context or an attachment's text. */
export function entryFile(kind: EntryKind, id: string): string {
  if (!ID_GRAMMAR[kind].test(id)) throw new InternalError(`not a ${kind} id: ${JSON.stringify(id)}`);
  return `${kind === 'variant' ? CONTEXT_DIR : ATTACHMENT_DIR}/${id}.md`;
}

/** Every text file a bundle holds, by bundle-relative path, with the manifest entry that vouches for it. */
export function listedFiles(m: ManifestV1): Map<string, { kind: EntryKind; id: string; bytes: number; sha256: string }> {
  const out = new Map<string, { kind: EntryKind; id: string; bytes: number; sha256: string }>();
  for (const [id, v] of Object.entries(m.variants)) out.set(entryFile('variant', id), { kind: 'variant', id, bytes: v.bytes, sha256: v.sha256 });
  for (const [id, a] of Object.entries(m.attachments)) out.set(entryFile('attachment', id), { kind: 'attachment', id, bytes: a.bytes, sha256: a.sha256 });
  return out;
}

/** The bundle id a `current` pointer's bytes name, or null when they are not exactly one id. */
export function parseCurrentPointer(text: string): string | null {
  const id = text.endsWith('\n') ? text.slice(0, -1) : text;
  return ID_GRAMMAR.bundle.test(id) ? id : null;
}
