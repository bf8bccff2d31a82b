/**
 * A bundle as `diffBundles` reads it: the manifest, the frozen texts and the
 * sources' bytes, wherever they came from — a verified bundle directory, or a
 * compile of a git tree or the work tree. The diff is a pure function of two
 * views, so it is the same whichever way a side was obtained.
 */
import type { ManifestV1 } from '../bundle/model.js';
import type { OpenedBundle } from '../bundle/open-bundle.js';
import type { CompileResult } from '../compile.js';
import type { SideKind } from './bundle-diff.js';

export interface BundleView {
  /** How the side was named, for reports: `bundle:bundles/b-…`, `git:main`, `worktree:`. */
  label: string;
  kind: SideKind;
  /** The commit a git side was compiled from; null otherwise (the manifest's source commit is used). */
  commit: string | null;
  manifest: ManifestV1;
  /** `sha256:` of the canonical manifest bytes (computed once by whoever built or opened it). */
  digest: string;
  /** The frozen text of a variant or an attachment the manifest lists. */
  text(kind: 'variant' | 'attachment', id: string): string;
  /** The raw bytes of source `id` (a key of manifest.files), or null when this side does not carry them. */
  sourceBytes(id: string): Uint8Array | null;
  /** Every path of the side's tree, sorted, when known (a compiled side); null for a bundle directory. */
  paths: readonly string[] | null;
}

/** A verified bundle directory (openBundle): texts and source blobs are checked against their digests as they are read. */
export function viewOfBundle(bundle: OpenedBundle, label: string): BundleView {
  return {
    label,
    kind: 'bundle',
    commit: null,
    manifest: bundle.manifest,
    digest: bundle.digest,
    text: (kind, id) => bundle.entryText(kind, id),
    sourceBytes: (id) => bundle.sourceBytes(id),
    paths: null,
  };
}

/** A compile result held in memory. */
export function viewOfCompile(result: CompileResult, label: string, kind: SideKind, commit: string | null): BundleView {
  const variants = new Map(result.variants.map((v) => [v.id, v.text] as const));
  const attachments = new Map(result.attachments.map((a) => [a.id, a.text] as const));
  const bytes = new Map(result.discovered.files.map((f) => [f.id, f.bytes] as const));
  return {
    label,
    kind,
    commit,
    manifest: result.manifest,
    digest: result.digest,
    text: (k, id) => {
      const text = (k === 'variant' ? variants : attachments).get(id);
      if (text === undefined) throw new RangeError(`no ${k} ${id} in ${label}`);
      return text;
    },
    sourceBytes: (id) => bytes.get(id) ?? null,
    paths: result.discovered.paths,
  };
}
