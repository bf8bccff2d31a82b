/**
 * openBundle(): what an agent runtime calls before it injects anything.
 *
 * 1. The bundle directory holds exactly manifest.json, context/,
 *    attachments/ and sources/ — real directories and regular files, no links.
 * 2. Read manifest.json; when the caller pins a digest, refuse any other.
 * 3. parseManifest: canonical bytes, the schema (every id matches its grammar
 *    before it names a file), a bundle id derived from the content.
 * 4. context/, attachments/ and sources/ hold exactly the files the manifest
 *    lists (sources/ one blob per distinct `files[].sha256`), each a regular
 *    file of the listed size.
 * 5. A text or source blob is read and checked against its sha256 before it
 *    is first served (or all at once with `verify: 'all'` / `verifyAll()`).
 * Anything wrong → BundleError with a coded diagnostic: fail closed.
 */
import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import picomatch from 'picomatch';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { diag } from '../diagnostics/diagnostic.js';
import { GLOB_OPTIONS } from '../resolve/glob-index.js';
import { digestOf } from '../util/hash.js';
import { BUNDLE_DIRS, BUNDLE_TOP_LEVEL, CURRENT_POINTER, entryFile, listedFiles, MANIFEST_FILE, parseCurrentPointer, sourceBlobFile, type EntryKind } from './layout.js';
import { normaliseBundlePath, variantFor, type ManifestRef, type ManifestV1 } from './model.js';
import { parseManifest } from './parse-manifest.js';
import { readRegularFile } from './read-regular.js';

/** A bundle that failed verification; `diagnostic.code` says how (RC70xx). */
export class BundleError extends Error {
  override name = 'BundleError';
  readonly code: string;
  constructor(readonly diagnostic: Diagnostic) {
    super(diagnostic.message);
    this.code = diagnostic.code;
  }
}

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
  manifest: ManifestV1;
  contextFor(path: string): PathContext;
  attachmentsFor(path: string): PathAttachment[];
  /** The frozen text of variant or attachment `id`, checked against its digest; throws RangeError for an id the manifest does not list. */
  entryText(kind: 'variant' | 'attachment', id: string): string;
  /** The raw bytes of source `id` (a key of `manifest.files`), checked against its digest; null for an id the manifest does not list. */
  sourceBytes(id: string): Uint8Array | null;
  /** Read and check every context, attachment and source blob now (openBundle checks each on first use). */
  verifyAll(): void;
}

export interface OpenOptions {
  /** Refuse the bundle unless its manifest digest equals this. */
  expectDigest?: string;
  /** 'lazy' (default): check each text when first served; 'all': check every text while opening. */
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
    fail('RC7005', MANIFEST_FILE, `bundle digest mismatch: expected ${options.expectDigest}, found ${digest}`);
  }
  const refused = options.verifyManifest?.(raw) ?? null;
  if (refused) throw new BundleError(refused);
  const parsed = parseManifest(raw);
  if (!parsed.ok) throw new BundleError(parsed.diagnostic);
  const manifest = parsed.manifest;
  const listed = listedFiles(manifest);
  checkListing(dir, listed);

  const verified = new Map<string, Buffer>();
  const bytesOf = (rel: string): Buffer => {
    let bytes = verified.get(rel);
    if (bytes === undefined) {
      const want = listed.get(rel);
      bytes = readOrFail(join(dir, rel), rel);
      if (!want || bytes.length !== want.bytes || digestOf(bytes) !== want.sha256) {
        fail('RC7006', rel, `${rel} does not match its digest in the manifest (tampered or corrupt)`);
      }
      verified.set(rel, bytes);
    }
    return bytes;
  };
  const texts = new Map<string, string>();
  const textOf = (kind: EntryKind, id: string): string => {
    const rel = entryFile(kind, id);
    let text = texts.get(rel);
    if (text === undefined) texts.set(rel, (text = bytesOf(rel).toString('utf8')));
    return text;
  };
  const matchers = Object.entries(manifest.attachments).map(([id, a]) => ({ id, a, test: picomatch(a.globs, GLOB_OPTIONS) }));
  const bundle: OpenedBundle = {
    dir,
    bundleId: manifest.bundle_id,
    digest,
    manifest,
    contextFor(path) {
      const id = variantFor(manifest.index, normaliseBundlePath(path));
      const v = manifest.variants[id];
      if (!v) fail('RC7003', MANIFEST_FILE, `bundle index names unknown variant ${id}`);
      return { variant: id, text: textOf('variant', id), digest: v.sha256, tokens: v.tokens, bytes: v.bytes, sources: v.sources };
    },
    attachmentsFor(path) {
      const p = normaliseBundlePath(path);
      return matchers.filter((m) => m.test(p)).map(({ id, a }) => ({
        variant: id, text: textOf('attachment', id), digest: a.sha256, tokens: a.tokens, bytes: a.bytes, sources: a.sources, globs: a.globs,
      }));
    },
    entryText(kind, id) {
      const listedHere = kind === 'variant' ? manifest.variants : manifest.attachments;
      if (!Object.prototype.hasOwnProperty.call(listedHere, id)) throw new RangeError(`the bundle lists no ${kind} ${id}`);
      return textOf(kind, id);
    },
    sourceBytes(id) {
      const f = Object.prototype.hasOwnProperty.call(manifest.files, id) ? manifest.files[id] : undefined;
      return f ? bytesOf(sourceBlobFile(f.sha256)) : null;
    },
    verifyAll() {
      for (const rel of listed.keys()) bytesOf(rel);
    },
  };
  if (options.verify === 'all') bundle.verifyAll();
  return bundle;
}

/** context/, attachments/ and sources/ hold exactly the listed files, each a regular file of the listed size. */
function checkListing(dir: string, listed: ReturnType<typeof listedFiles>): void {
  for (const sub of BUNDLE_DIRS) {
    const names = [...listed.keys()].filter((rel) => rel.startsWith(`${sub}/`)).map((rel) => rel.slice(sub.length + 1));
    expectEntries(join(dir, sub), `${sub}/`, names, new Set(names));
  }
  for (const [rel, want] of listed) {
    const st = lstatSync(join(dir, rel));
    if (st.size !== want.bytes) fail('RC7006', rel, `${rel} does not match its digest in the manifest: ${st.size} bytes, listed as ${want.bytes} (tampered or corrupt)`);
  }
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
    fail('RC7001', shown, `bundle has no ${shown === '.' ? 'directory' : `${shown}/ directory`} at ${dir}`);
  }
  if (!st.isDirectory()) fail('RC7007', shown, `${shown} is not a directory (${st.isSymbolicLink() ? 'a symbolic link' : 'a file'})`);
  const allow = new Set(allowed);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const rel = `${prefix}${entry.name}`;
    if (!allow.has(entry.name)) fail('RC7007', rel, `${rel} is not listed in the manifest`);
    const isFile = files.has(entry.name);
    if (isFile ? !entry.isFile() : !entry.isDirectory()) {
      fail('RC7007', rel, `${rel} must be a ${isFile ? 'regular file' : 'directory'}, found ${entry.isSymbolicLink() ? 'a symbolic link' : 'another kind of entry'}`);
    }
  }
  for (const name of files) {
    try {
      lstatSync(join(dir, name));
    } catch {
      fail('RC7001', `${prefix}${name}`, `${prefix}${name} is missing`);
    }
  }
}

function readOrFail(path: string, rel: string): Buffer {
  const r = readRegularFile(path);
  if (r.ok) return r.bytes;
  if (r.why === 'not-regular') fail('RC7007', rel, `${rel} must be a regular file, found ${r.detail ?? 'another kind of entry'}`);
  return fail('RC7001', rel, `cannot read ${rel}: ${r.why === 'missing' ? 'missing' : r.detail ?? r.why}`);
}

function fail(code: string, file: string, message: string): never {
  throw new BundleError(diag(code, { file, message }));
}

/**
 * The bundle directory `<bundlesDir>/current` names, or null when there is no
 * pointer. The pointer must be a regular file holding one bundle id, so it can
 * only ever name a directory beside it.
 */
export function currentBundleDir(bundlesDir: string): string | null {
  const r = readRegularFile(join(bundlesDir, CURRENT_POINTER), 4096);
  if (!r.ok && r.why === 'missing') return null;
  const id = r.ok ? parseCurrentPointer(r.bytes.toString('utf8')) : null;
  if (id === null) fail('RC7008', CURRENT_POINTER, `${join(bundlesDir, CURRENT_POINTER)} does not hold a bundle id${r.ok ? '' : ` (${r.detail ?? r.why})`}`);
  return join(bundlesDir, id);
}
