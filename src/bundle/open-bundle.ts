/**
 * openBundle(): what an agent runtime calls before it injects anything.
 *
 * 1. The bundle directory holds exactly manifest.json, parts/, context/,
 *    attachments/ and sources/ — real directories and regular files, no links.
 * 2. Read manifest.json (the root); when the caller pins a digest, refuse any other.
 * 3. parseManifestRoot: canonical bytes, the schema (every part name matches
 *    its grammar before it names a file), a bundle id derived from the root,
 *    whose part digests cover every part.
 * 4. parts/ holds exactly the parts the root lists; context/, attachments/
 *    and sources/ hold as many regular files as the root counts, each named
 *    by its directory's grammar.
 * 5. A part, a text or a source blob is read and checked against the digest
 *    that vouches for it before it is first used: a path's lookup reads only
 *    the parts that path needs (lazy-manifest.ts). `verify: 'all'` /
 *    `verifyAll()` / `.manifest` read and check every part (parseManifest),
 *    and verifyAll then every listed file's name, size and digest.
 * Anything wrong → BundleError with a coded diagnostic: fail closed.
 */
import { lstatSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Diagnostic } from '../diagnostics/diagnostic-shape.js';
import { BundleError, failBundle } from './bundle-error.js';
import { digestOf } from '../util/hash.js';
import { BUNDLE_DIRS, BUNDLE_TOP_LEVEL, CURRENT_POINTER, entryFile, entryNameFits, listedFiles, listedParts, MANIFEST_FILE, PART_DIR, parseCurrentPointer,
  partFile, sourceBlobFile, type EntryKind } from './layout.js';
import { lazyLookup } from './lazy-manifest.js';
import { attachmentsMatching, servingVariant, type ManifestLookup } from './manifest-lookup.js';
import { ID_GRAMMAR, type ManifestRef, type ManifestRoot, type ManifestV1 } from './model.js';
import { normaliseBundlePath } from './serving.js';
import { parseManifest, parseManifestRoot, parsePart } from './parse-manifest.js';
import { readRegularFile } from './read-regular.js';

export type BundleSourceRef = ManifestRef;

export interface PathContext {
  variant: string;
  text: string;
  /** `sha256:` digest of `text`. */
  digest: string;
  tokens: number;
  bytes: number;
  sources: BundleSourceRef[];
}

export interface PathAttachment extends PathContext {
  globs: string[];
}

export interface OpenedBundle {
  dir: string;
  bundleId: string;
  digest: string;
  /** manifest.json: everything but the tables, and the digest of each part that holds them. */
  root: ManifestRoot;
  /** The tables, read part by part as they are asked for, each part verified on first read. */
  lookup: ManifestLookup;
  /** The whole manifest: every part read and verified on first access (the texts are not). */
  readonly manifest: ManifestV1;
  contextFor(path: string): PathContext;
  attachmentsFor(path: string): PathAttachment[];
  /** The frozen text of variant or attachment `id`, checked against its digest; throws RangeError for an id the manifest does not list. */
  entryText(kind: 'variant' | 'attachment', id: string): string;
  /** The raw bytes of source `id` (a key of `manifest.files`), checked against its digest; null for an id the manifest does not list. */
  sourceBytes(id: string): Uint8Array | null;
  /** Read and check every part, and every context, attachment and source blob, now (openBundle checks each on first use). */
  verifyAll(): void;
}

export interface OpenOptions {
  /** Refuse the bundle unless its manifest digest equals this. */
  expectDigest?: string;
  /** 'lazy' (default): check each part and text when first used; 'all': check everything while opening. */
  verify?: 'lazy' | 'all';
  /**
   * An extra check of the manifest bytes before anything else is read, e.g. a
   * signature against a trust file (the registry's `signedBy`); a diagnostic refuses the bundle.
   */
  verifyManifest?: (manifestBytes: Buffer) => Diagnostic | null;
}

export function openBundle(dir: string, options: OpenOptions = {}): OpenedBundle {
  expectEntries(dir, '', BUNDLE_TOP_LEVEL, new Set([MANIFEST_FILE]));
  const raw = readOrFail(join(dir, MANIFEST_FILE), MANIFEST_FILE);
  const digest = digestOf(raw);
  if (options.expectDigest !== undefined && options.expectDigest !== digest) {
    failBundle('RC7005', MANIFEST_FILE, `bundle digest mismatch: expected ${options.expectDigest}, found ${digest}`);
  }
  const refused = options.verifyManifest?.(raw) ?? null;
  if (refused) throw new BundleError(refused);
  const parsed = parseManifestRoot(raw);
  if (!parsed.ok) throw new BundleError(parsed.diagnostic);
  const root = parsed.root;
  checkEntries(dir, root);

  const parts = new Map<string, unknown>();
  const partOf = (name: string): unknown => {
    if (!parts.has(name)) {
      const r = parsePart(root, name, readOrFail(join(dir, partFile(name)), partFile(name)));
      if (!r.ok) throw new BundleError(r.diagnostic);
      parts.set(name, r.value);
    }
    return parts.get(name);
  };
  const lookup = lazyLookup(root, partOf, (message) => failBundle('RC7003', MANIFEST_FILE, message));
  let whole: ManifestV1 | undefined;
  const manifest = (): ManifestV1 => (whole ??= wholeManifest(dir, raw));
  let listed: Map<string, { bytes: number; sha256: string }> | undefined;
  const verified = new Map<string, Buffer>();
  const bytesOf = (rel: string, want: { bytes: number; sha256: string }): Buffer => {
    let bytes = verified.get(rel);
    if (bytes === undefined) {
      bytes = readOrFail(join(dir, rel), rel);
      if (bytes.length !== want.bytes || digestOf(bytes) !== want.sha256) failBundle('RC7006', rel, `${rel} does not match its digest in the manifest (tampered or corrupt)`);
      verified.set(rel, bytes);
    }
    return bytes;
  };
  const texts = new Map<string, string>();
  const textOf = (kind: EntryKind, id: string, want: { bytes: number; sha256: string }): string => {
    const rel = entryFile(kind, id);
    let text = texts.get(rel);
    if (text === undefined) texts.set(rel, (text = bytesOf(rel, want).toString('utf8')));
    return text;
  };
  const bundle: OpenedBundle = {
    dir,
    bundleId: root.bundle_id,
    digest,
    root,
    lookup,
    get manifest() {
      return manifest();
    },
    contextFor(path) {
      const id = servedVariant(lookup, normaliseBundlePath(path));
      const v = lookup.variant(id) ?? failBundle('RC7003', MANIFEST_FILE, `bundle index names unknown variant ${id}`);
      return { variant: id, text: textOf('variant', id, v), digest: v.sha256, tokens: v.tokens, bytes: v.bytes, sources: v.sources };
    },
    attachmentsFor(path) {
      return attachmentsMatching(lookup.attachments(), normaliseBundlePath(path)).map(([id, a]) => ({
        variant: id, text: textOf('attachment', id, a), digest: a.sha256, tokens: a.tokens, bytes: a.bytes, sources: a.sources, globs: a.globs,
      }));
    },
    entryText(kind, id) {
      const entry = kind === 'variant' ? lookup.variant(id) : own(lookup.attachments(), id);
      if (entry === undefined) throw new RangeError(`the bundle lists no ${kind} ${id}`);
      return textOf(kind, id, entry);
    },
    sourceBytes(id) {
      const f = own(lookup.files(), id);
      return f ? bytesOf(sourceBlobFile(f.sha256), { bytes: f.size, sha256: f.sha256 }) : null;
    },
    verifyAll() {
      listed ??= checkListing(dir, manifest());
      for (const [rel, want] of listed) bytesOf(rel, want);
    },
  };
  if (options.verify === 'all') bundle.verifyAll();
  return bundle;
}

const own = <T>(o: Readonly<Record<string, T>>, k: string): T | undefined => (Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined);

/** The variant serving `path`; an index without a root entry is a refused bundle, not a crash. */
function servedVariant(lookup: ManifestLookup, path: string): string {
  try {
    return servingVariant(lookup, path).variant;
  } catch (e) {
    if (e instanceof RangeError) failBundle('RC7003', MANIFEST_FILE, 'the manifest index has no root entry');
    throw e;
  }
}

/** The whole manifest from manifest.json and every part (full verification of the manifest). */
function wholeManifest(dir: string, raw: Buffer): ManifestV1 {
  const parsed = parseManifest({ root: raw, part: (name) => readOrFail(join(dir, partFile(name)), partFile(name)) });
  if (!parsed.ok) throw new BundleError(parsed.diagnostic);
  return parsed.manifest;
}

/**
 * What can be checked before any part is read: parts/ holds exactly the
 * listed parts, and context/, attachments/ and sources/ as many regular
 * files as the root counts, each name fitting its directory's grammar.
 */
function checkEntries(dir: string, root: ManifestRoot): void {
  const parts = [...listedParts(root).keys()].map((rel) => rel.slice(PART_DIR.length + 1));
  expectEntries(join(dir, PART_DIR), `${PART_DIR}/`, parts, new Set(parts));
  const counts: Record<string, number> = { context: root.entries.context, attachments: root.entries.attachments, sources: root.entries.sources };
  for (const sub of BUNDLE_DIRS.filter((d) => d !== PART_DIR)) {
    const want = counts[sub] ?? 0;
    const names = listDir(dir, sub, want);
    const bad = names.find((n) => !n.file || !entryNameFits(sub, n.name));
    if (bad) failBundle('RC7007', `${sub}/${bad.name}`, `${sub}/${bad.name} ${bad.file ? 'is not listed in the manifest' : 'must be a regular file'}`);
    if (names.length > want) failBundle('RC7007', `${sub}/`, `${sub}/ holds ${names.length} files, ${names.length - want} more than the manifest lists: not listed in the manifest`);
    if (names.length < want) failBundle('RC7001', `${sub}/`, `${sub}/ holds ${names.length} files; the manifest lists ${want}: ${want - names.length} missing`);
  }
}

/** The entries of bundle directory `sub` (absent is empty when nothing is expected there). */
function listDir(dir: string, sub: string, want: number): { name: string; file: boolean }[] {
  let st;
  try {
    st = lstatSync(join(dir, sub));
  } catch {
    if (want === 0) return [];
    return failBundle('RC7001', sub, `bundle has no ${sub}/ directory at ${dir}`);
  }
  if (!st.isDirectory()) failBundle('RC7007', sub, `${sub} is not a directory (${st.isSymbolicLink() ? 'a symbolic link' : 'a file'})`);
  return readdirSync(join(dir, sub), { withFileTypes: true }).map((e) => ({ name: e.name, file: e.isFile() }));
}

/** Every listed file is there by name, a regular file of the listed size, and nothing else is (full verification). */
function checkListing(dir: string, m: ManifestV1): Map<string, { bytes: number; sha256: string }> {
  const listed = listedFiles(m);
  for (const sub of BUNDLE_DIRS) {
    const names = [...listed.keys()].filter((rel) => rel.startsWith(`${sub}/`)).map((rel) => rel.slice(sub.length + 1));
    expectEntries(join(dir, sub), `${sub}/`, names, new Set(names));
  }
  for (const [rel, want] of listed) {
    const st = lstatSync(join(dir, rel));
    if (st.size !== want.bytes) failBundle('RC7006', rel, `${rel} does not match its digest in the manifest: ${st.size} bytes, listed as ${want.bytes} (tampered or corrupt)`);
  }
  return listed;
}

/**
 * `dir` is a real directory whose entries are all in `allowed`; those in
 * `files` must be regular files, the others real directories; every name in
 * `files` must be present.
 */
function expectEntries(dir: string, prefix: string, allowed: readonly string[], files: ReadonlySet<string>): void {
  const shown = prefix === '' ? '.' : prefix.slice(0, -1);
  let st;
  try {
    st = lstatSync(dir);
  } catch {
    if (files.size === 0 && prefix !== '') return; // an empty context/, attachments/ or sources/ may be absent
    failBundle('RC7001', shown, `bundle has no ${shown === '.' ? 'directory' : `${shown}/ directory`} at ${dir}`);
  }
  if (!st.isDirectory()) {
    const pointer = prefix === '' && basename(dir) === CURRENT_POINTER && st.isFile() ? `: a ${CURRENT_POINTER} pointer; open the bundle it names (currentBundleDir() gives its directory)` : '';
    failBundle('RC7007', shown, `${prefix === '' ? dir : shown} is not a directory (${st.isSymbolicLink() ? 'a symbolic link' : 'a file'})${pointer}`);
  }
  const allow = new Set(allowed);
  const seen = new Set<string>();
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const rel = `${prefix}${entry.name}`;
    if (prefix === '' && !allow.has(entry.name) && (entry.name === CURRENT_POINTER || ID_GRAMMAR.bundle.test(entry.name))) {
      failBundle('RC7007', rel, `${dir} is a bundles directory (it holds ${rel}), not a bundle: open a bundle inside it, such as the one its ${CURRENT_POINTER} pointer names (currentBundleDir() gives its directory)`);
    }
    if (!allow.has(entry.name)) failBundle('RC7007', rel, `${rel} is not listed in the manifest`);
    const isFile = files.has(entry.name);
    if (isFile ? !entry.isFile() : !entry.isDirectory()) {
      failBundle('RC7007', rel, `${rel} must be a ${isFile ? 'regular file' : 'directory'}, found ${entry.isSymbolicLink() ? 'a symbolic link' : 'another kind of entry'}`);
    }
    seen.add(entry.name);
  }
  for (const name of files) if (!seen.has(name)) failBundle('RC7001', `${prefix}${name}`, `${prefix}${name} is missing`);
}

function readOrFail(path: string, rel: string): Buffer {
  const r = readRegularFile(path);
  if (r.ok) return r.bytes;
  if (r.why === 'not-regular') failBundle('RC7007', rel, `${rel} must be a regular file, found ${r.detail ?? 'another kind of entry'}`);
  return failBundle('RC7001', rel, `cannot read ${rel}: ${r.why === 'missing' ? 'missing' : r.detail ?? r.why}`);
}

