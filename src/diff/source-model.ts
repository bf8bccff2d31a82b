/**
 * The sources of one side, rebuilt from a view's manifest entries and bytes
 * with the pipeline's own pure functions (parseDoc, activationOf, rulesOf,
 * factsOf), so rule ids and topic findings are exactly what a build computes.
 * Each source is parsed at most once, and only when asked for: a diff parses
 * the sources that changed and those of the variants that changed.
 */
import type { ManifestFile } from '../bundle/model.js';
import { authorityOf, type Authority } from '../conflicts/cascade.js';
import { factsOf, type SourceFacts } from '../conflicts/facts.js';
import { rulesOf, type Rule } from '../conflicts/rules.js';
import { parseDoc } from '../parse/parse-doc.js';
import { activationOf } from '../resolve/activation.js';
import type { ResolvedSource } from '../resolve/resolve.js';
import type { FormatName, Root, SourceFile } from '../types.js';
import { sha256Hex } from '../util/hash.js';
import type { BundleView } from './view.js';

export interface ModelSource {
  resolved: ResolvedSource;
  rules: Rule[];
  facts: SourceFacts;
  authority: Authority;
}

export interface SourceModel {
  /** The manifest entry of `id`, or undefined when the side has no such source. */
  file(id: string): ManifestFile | undefined;
  /** The parsed source, or null when the side does not list it or carries no bytes for it. */
  source(id: string): ModelSource | null;
  /** Every source parsed so far: all text a diff shows comes from these. */
  parsed(): ModelSource[];
}

export function sourceModel(view: BundleView): SourceModel {
  const files = view.manifest.files;
  const has = (id: string): boolean => Object.prototype.hasOwnProperty.call(files, id);
  const memo = new Map<string, ModelSource | null>();
  return {
    file: (id) => (has(id) ? files[id] : undefined),
    source(id) {
      let s = memo.get(id);
      if (s === undefined) {
        s = has(id) ? build(id, files[id] as ManifestFile, view.sourceBytes(id)) : null;
        memo.set(id, s);
      }
      return s;
    },
    parsed: () => [...memo.values()].filter((s): s is ModelSource => s !== null),
  };
}

function build(id: string, f: ManifestFile, bytes: Uint8Array | null): ModelSource | null {
  if (bytes === null || `sha256:${sha256Hex(bytes)}` !== f.sha256) return null;
  // The manifest records the effective layer; activationOf maps it to itself
  // (only a repo file that attaches becomes path, and that is what is recorded).
  // `rel` is never read by the functions below; ids are not parsed back into paths.
  const file: SourceFile = { id, rel: id, root: rootOf(f), format: f.format as FormatName, layer: f.layer, scope: f.scope, bytes, tracked: f.tracked };
  if (f.link !== undefined) file.linkTarget = f.link;
  const doc = parseDoc(file).value;
  const resolved: ResolvedSource = { file, doc, info: activationOf(file, doc).value, sha256: f.sha256.slice(7) };
  return { resolved, rules: rulesOf(doc), facts: factsOf(resolved), authority: authorityOf(resolved) };
}

/** Managed and user files (and their imports, which stay in their root) carry their layer's name as root. */
function rootOf(f: ManifestFile): Root {
  return f.layer === 'managed' ? 'managed' : f.layer === 'user' ? 'user' : 'repo';
}
