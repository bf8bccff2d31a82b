/**
 * openBundle(): what an agent runtime calls before it injects anything.
 *
 * 1. Read manifest.json and compute its digest; when the caller pins a digest,
 *    refuse a manifest that does not match it.
 * 2. Check the manifest's shape (schema id, bundle id derived from content).
 * 3. Read every context and attachment file and compare its sha256 and size
 *    with the manifest. Any mismatch, missing or extra file → BundleError.
 * Only a fully verified bundle answers contextFor/attachmentsFor: fail closed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import picomatch from 'picomatch';
import { canonicalJson } from '../util/canonical-json.js';
import { contentId, digestOf, sha256Hex } from '../util/hash.js';
import { dirnameOf } from '../util/posix-path.js';
import { MANIFEST_SCHEMA_ID } from '../emit/manifest.js';
import { GLOB_OPTIONS } from '../resolve/glob-index.js';

export class BundleError extends Error {
  override name = 'BundleError';
}

export interface BundleSourceRef {
  id: string;
  reason: string;
  imported_by?: string;
}

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
  manifest: Record<string, unknown>;
  contextFor(path: string): PathContext;
  attachmentsFor(path: string): PathAttachment[];
}

interface EntryJson {
  sources: BundleSourceRef[];
  bytes: number;
  tokens: number;
  sha256: string;
  globs?: string[];
}

export interface OpenOptions {
  /** Refuse the bundle unless its manifest digest equals this. */
  expectDigest?: string;
}

export function openBundle(dir: string, options: OpenOptions = {}): OpenedBundle {
  const raw = readOrFail(join(dir, 'manifest.json'), 'manifest.json');
  const digest = digestOf(raw);
  if (options.expectDigest && options.expectDigest !== digest) {
    throw new BundleError(`bundle digest mismatch: expected ${options.expectDigest}, found ${digest}`);
  }
  const manifest = parseManifest(raw.toString('utf8'));
  const variants = manifest.variants as Record<string, EntryJson>;
  const attachments = manifest.attachments as Record<string, EntryJson>;
  const texts = new Map<string, string>();
  verifyEntries(dir, 'context', variants, texts);
  verifyEntries(dir, 'attachments', attachments, texts);
  const index = manifest.index as Record<string, string>;
  const matchers = Object.entries(attachments).map(([id, a]) => ({ id, a, test: picomatch(a.globs ?? [], GLOB_OPTIONS) }));

  const entryOut = (id: string, e: EntryJson): PathContext => ({
    variant: id, text: texts.get(id) ?? '', digest: e.sha256, tokens: e.tokens, bytes: e.bytes, sources: e.sources,
  });
  return {
    dir,
    bundleId: String(manifest.bundle_id),
    digest,
    manifest,
    contextFor(path: string): PathContext {
      const id = variantFor(index, normalise(path));
      const v = variants[id];
      if (!v) throw new BundleError(`bundle index names unknown variant ${id}`);
      return entryOut(id, v);
    },
    attachmentsFor(path: string): PathAttachment[] {
      const p = normalise(path);
      return matchers.filter((m) => m.test(p)).map((m) => ({ ...entryOut(m.id, m.a), globs: m.a.globs ?? [] }));
    },
  };
}

function readOrFail(file: string, what: string): Buffer {
  try {
    return readFileSync(file);
  } catch (e) {
    throw new BundleError(`cannot read ${what}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

function parseManifest(text: string): Record<string, unknown> {
  let m: Record<string, unknown>;
  try {
    m = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new BundleError('manifest.json is not valid JSON');
  }
  if (m === null || typeof m !== 'object' || m.schema !== MANIFEST_SCHEMA_ID) throw new BundleError(`manifest.json is not a rulec manifest (schema ${String((m as { schema?: unknown } | null)?.schema)})`);
  for (const key of ['variants', 'attachments', 'index']) {
    if (typeof m[key] !== 'object' || m[key] === null) throw new BundleError(`manifest.json has no ${key}`);
  }
  if (canonicalJson(m) !== text) throw new BundleError('manifest.json is not in canonical form');
  const { bundle_id: id, revision: _r, source: _s, ...content } = m;
  if (contentId('b-', canonicalJson(content)) !== id) throw new BundleError(`bundle id ${String(id)} does not match the manifest content`);
  return m;
}

function verifyEntries(dir: string, sub: string, entries: Record<string, EntryJson>, texts: Map<string, string>): void {
  const expected = new Set(Object.keys(entries).map((id) => `${id}.md`));
  let present: string[] = [];
  try {
    present = readdirSync(join(dir, sub));
  } catch {
    if (expected.size > 0) throw new BundleError(`bundle has no ${sub}/ directory`);
  }
  for (const name of present) if (!expected.has(name)) throw new BundleError(`${sub}/${name} is not listed in the manifest`);
  for (const [id, e] of Object.entries(entries)) {
    const bytes = readOrFail(join(dir, sub, `${id}.md`), `${sub}/${id}.md`);
    if (bytes.length !== e.bytes || `sha256:${sha256Hex(bytes)}` !== e.sha256) {
      throw new BundleError(`${sub}/${id}.md does not match its digest in the manifest (tampered or corrupt)`);
    }
    texts.set(id, bytes.toString('utf8'));
  }
}

function normalise(path: string): string {
  return path.replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+$/, '');
}

/** Nearest directory entry in the compact index, walking up from the path's directory. */
function variantFor(index: Record<string, string>, path: string): string {
  // A path that is itself an indexed directory resolves to that directory's variant.
  for (let dir = index[path] !== undefined ? path : dirnameOf(path); ; dir = dirnameOf(dir)) {
    const id = index[dir];
    if (id !== undefined) return id;
    if (dir === '') throw new BundleError('bundle index has no root entry');
  }
}
