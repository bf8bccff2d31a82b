/**
 * Where each file of a bundle lives, and the `current` pointer beside bundles.
 * An id becomes a file name only after it matches its grammar, so no name
 * from a manifest can reach outside the bundle directory.
 *
 * Parts: the manifest's tables, `parts/<name>.json`, each pinned in
 * manifest.json by its sha256 (model.ts says which table goes where).
 *
 * Source blobs: the raw bytes of every source the manifest lists, stored once
 * per content as `sources/<sha256 hex>` (named by `files[].sha256`), so a
 * bundle directory alone is enough to diff rules by id (`rulec diff`).
 */
import { InternalError } from '../util/errors.js';
import { encodeManifest, ID_GRAMMAR, type ManifestFile, type ManifestRoot, type ManifestV1 } from './model.js';

export const MANIFEST_FILE = 'manifest.json';
export const CONTEXT_DIR = 'context';
export const ATTACHMENT_DIR = 'attachments';
export const SOURCE_DIR = 'sources';
export const PART_DIR = 'parts';
/** `<out>/current` holds the id of the bundle last built in `<out>`. */
export const CURRENT_POINTER = 'current';
/** Every entry a bundle directory may hold at its top level. */
export const BUNDLE_TOP_LEVEL: readonly string[] = [MANIFEST_FILE, PART_DIR, CONTEXT_DIR, ATTACHMENT_DIR, SOURCE_DIR];
/** The directories below a bundle's top level, each holding only listed files. */
export const BUNDLE_DIRS: readonly string[] = [PART_DIR, CONTEXT_DIR, ATTACHMENT_DIR, SOURCE_DIR];

const SOURCE_BLOB = /^[0-9a-f]{64}$/;

export type EntryKind = 'variant' | 'attachment' | 'source' | 'part';

const DIR_OF: Record<Exclude<EntryKind, 'source'>, string> = { variant: CONTEXT_DIR, attachment: ATTACHMENT_DIR, part: PART_DIR };

/**
 * Bundle-relative posix path of a variant's context, an attachment's text, or
 * a source blob (id: the sha256 hex of its bytes).
 */
export function entryFile(kind: EntryKind, id: string): string {
  if (kind === 'source') {
    if (!SOURCE_BLOB.test(id)) throw new InternalError(`not a source blob id: ${JSON.stringify(id)}`);
    return `${SOURCE_DIR}/${id}`;
  }
  if (!ID_GRAMMAR[kind].test(id)) throw new InternalError(`not a ${kind} id: ${JSON.stringify(id)}`);
  return `${DIR_OF[kind]}/${id}${kind === 'part' ? '.json' : '.md'}`;
}

/** The file of manifest part `name`. */
export function partFile(name: string): string {
  return entryFile('part', name);
}

/** The parts a root lists, by bundle-relative path. */
export function listedParts(root: ManifestRoot): Map<string, ListedFile> {
  const out = new Map<string, ListedFile>();
  for (const [name, p] of Object.entries(root.parts)) out.set(partFile(name), { kind: 'part', id: name, bytes: p.bytes, sha256: p.sha256 });
  return out;
}

/** The name grammar of each bundle directory's files. */
const ENTRY_NAME: Readonly<Record<string, RegExp>> = {
  [CONTEXT_DIR]: /^v-[0-9a-f]{16}\.md$/,
  [ATTACHMENT_DIR]: /^a-[0-9a-f]{16}\.md$/,
  [SOURCE_DIR]: SOURCE_BLOB,
  [PART_DIR]: new RegExp(`${ID_GRAMMAR.part.source.slice(0, -1)}\\.json$`),
};

/** Whether `name` may sit in bundle directory `dir` at all (its entry grammar), before any part says it is listed. */
export function entryNameFits(dir: string, name: string): boolean {
  return ENTRY_NAME[dir]?.test(name) ?? false;
}

/** The blob path of a source file's bytes, from its manifest digest (`sha256:<hex>`). */
export function sourceBlobFile(sha256: string): string {
  return entryFile('source', sha256.startsWith('sha256:') ? sha256.slice(7) : sha256);
}

export interface ListedFile {
  kind: EntryKind;
  id: string;
  bytes: number;
  sha256: string;
}

/** Every file a bundle holds but manifest.json, by bundle-relative path, with the manifest entry that vouches for it. */
export function listedFiles(m: ManifestV1): Map<string, ListedFile> {
  const out = listedParts(encodeManifest(m).root);
  for (const [id, v] of Object.entries(m.variants)) out.set(entryFile('variant', id), { kind: 'variant', id, bytes: v.bytes, sha256: v.sha256 });
  for (const [id, a] of Object.entries(m.attachments)) out.set(entryFile('attachment', id), { kind: 'attachment', id, bytes: a.bytes, sha256: a.sha256 });
  // Two files with the same bytes share one blob (the schema fixes the digest's form), and
  // state one size for it (parsePart refuses a files part that does not: blobSizeConflict).
  for (const f of Object.values(m.files)) out.set(sourceBlobFile(f.sha256), { kind: 'source', id: f.sha256.slice(7), bytes: f.size, sha256: f.sha256 });
  return out;
}

/**
 * Why a files table cannot be trusted to list each source blob once: two files that share a
 * blob (the same sha256) but state different sizes. One blob has one size, so a table that
 * says otherwise is refused before any of its entries is used; listedFiles then holds the
 * size every entry states, and a read checks it whichever entry asks first.
 */
export function blobSizeConflict(files: Readonly<Record<string, ManifestFile>>): string | null {
  const sizes = new Map<string, [id: string, size: number]>();
  for (const [id, f] of Object.entries(files)) {
    const seen = sizes.get(f.sha256);
    if (seen === undefined) sizes.set(f.sha256, [id, f.size]);
    else if (seen[1] !== f.size) return `files ${seen[0]} and ${id} share one source blob but list sizes ${seen[1]} and ${f.size}`;
  }
  return null;
}

/** The bundle id a `current` pointer's bytes name, or null when they are not exactly one id. */
export function parseCurrentPointer(text: string): string | null {
  const id = text.endsWith('\n') ? text.slice(0, -1) : text;
  return ID_GRAMMAR.bundle.test(id) ? id : null;
}
