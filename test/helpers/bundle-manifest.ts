/**
 * A bundle's manifest as a test edits it: manifest.json and the parts it pins
 * read back into one ManifestV1, and written out again (re-sealed or not) the
 * way a forger would.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PART_DIR, partFile } from '../../src/bundle/layout.js';
import { bundleIdOf, contentOf, encodeManifest, joinParts, type ManifestRoot, type ManifestV1 } from '../../src/bundle/model.js';
import type { ManifestFiles } from '../../src/bundle/parse-manifest.js';

export function readRoot(dir: string): ManifestRoot {
  return JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as ManifestRoot;
}

/** The whole manifest of bundle `dir`, joined from its parts without any check. */
export function readWholeManifest(dir: string): ManifestV1 {
  const { parts, entries: _entries, ...head } = readRoot(dir);
  const values = new Map(Object.keys(parts).map((name) => [name, JSON.parse(readFileSync(join(dir, partFile(name)), 'utf8')) as unknown]));
  return { ...head, ...joinParts(values) };
}

/** Write `m` as manifest.json and parts/ (replacing the old parts), re-sealing its bundle id unless `reseal` is false. */
export function writeWholeManifest(dir: string, m: ManifestV1, reseal = true): void {
  const sealed: ManifestV1 = reseal ? { ...m, bundle_id: bundleIdOf(contentOf(m)) } : m;
  const e = encodeManifest(sealed);
  rmSync(join(dir, PART_DIR), { recursive: true, force: true });
  mkdirSync(join(dir, PART_DIR));
  for (const [name, text] of e.parts) writeFileSync(join(dir, partFile(name)), text);
  writeFileSync(join(dir, 'manifest.json'), e.text);
}

/** The files a manifest is written as, for parseManifest. */
export function filesOf(m: ManifestV1): ManifestFiles {
  const e = encodeManifest(m);
  return { root: e.text, part: (name) => e.parts.get(name) ?? null };
}

/** The part files of bundle `dir`, by name (`index-3f`). */
export function partNames(dir: string): string[] {
  return readdirSync(join(dir, PART_DIR)).map((f) => f.replace(/\.json$/, '')).sort();
}

/** The code of the error `f` throws (a BundleError's RC code), or undefined when it returns. */
export function codeOf(f: () => unknown): string | undefined {
  try {
    f();
    return undefined;
  } catch (e) {
    return (e as { code?: string }).code;
  }
}
