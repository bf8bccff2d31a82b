/**
 * The manifest (pure): everything a consumer needs to verify and serve a
 * bundle, as canonical JSON. The bundle id hashes the compiled content only
 * (not the commit or revision), so the same rules always give the same id;
 * the bundle digest hashes the whole manifest.
 */
import type { Attachment, SourceRef, Variant } from '../types.js';
import type { Resolution } from '../resolve/resolve.js';
import type { Overrun } from '../validate/budgets.js';
import type { GitInfo } from '../discover/git.js';
import type { ConflictEvent } from '../conflicts/detect.js';
import type { ProfileFit } from '../profiles/evaluate.js';
import { countBySeverity, type Diagnostic } from '../diagnostics/diagnostic.js';
import { canonicalJson } from '../util/canonical-json.js';
import { compareCodeUnits } from '../util/compare.js';
import { contentId, digestOf } from '../util/hash.js';

export const MANIFEST_SCHEMA_ID = 'https://rulec.dev/schemas/manifest-v1.json';

export interface ManifestInput {
  resolution: Resolution;
  variants: readonly Variant[];
  attachments: readonly Attachment[];
  overruns: readonly Overrun[];
  diagnostics: readonly Diagnostic[];
  git: GitInfo | null;
  revision: string;
  compilerVersion: string;
  policyDigest: string;
  tokenizer: string;
  includeLocal: boolean;
  includeUser: boolean;
  sourceTokens: ReadonlyMap<string, number>;
  conflicts: readonly ConflictEvent[];
  /** Per variant, per enabled agent profile: bytes, tokens, whether it fits, what it cuts or drops. */
  profiles: Readonly<Record<string, Record<string, ProfileFit>>>;
}

export type Manifest = Record<string, unknown> & { bundle_id: string };

const refJson = (r: SourceRef): Record<string, unknown> => ({ id: r.id, reason: r.reason, imported_by: r.importedBy });

export function buildManifest(input: ManifestInput): Manifest {
  const { resolution } = input;
  // Keyed by source id (a path): null prototype, so a file named `__proto__` is a key like any other.
  const files = Object.create(null) as Record<string, unknown>;
  for (const s of [...resolution.sources.values()].sort((a, b) => compareCodeUnits(a.file.id, b.file.id))) {
    files[s.file.id] = {
      root: s.file.root,
      path: s.file.rel,
      sha256: `sha256:${s.sha256}`,
      size: s.file.bytes.length,
      layer: s.info.layer,
      format: s.file.format,
      scope: s.file.scope,
      activation: s.info.activation,
      tracked: s.file.tracked,
      tokens: input.sourceTokens.get(s.file.id),
      globs: s.info.rawGlobs.length > 0 ? s.info.rawGlobs : undefined,
      link: s.file.linkTarget,
    };
  }
  // No path counts: adding an unrelated file to the repository must not change
  // the bundle. The compact index only changes where a directory's context does.
  const variants: Record<string, unknown> = {};
  for (const v of input.variants) {
    variants[v.id] = { sources: v.sources.map(refJson), bytes: v.bytes, tokens: v.tokens, sha256: `sha256:${v.sha256}`, profiles: input.profiles[v.id] ?? {} };
  }
  const attachments: Record<string, unknown> = {};
  for (const a of input.attachments) {
    attachments[a.id] = { sources: a.sources.map(refJson), globs: a.globs, bytes: a.bytes, tokens: a.tokens, sha256: `sha256:${a.sha256}` };
  }
  const counts = countBySeverity(input.diagnostics);
  const byCode: Record<string, number> = {};
  for (const d of input.diagnostics) byCode[d.code] = (byCode[d.code] ?? 0) + 1;
  const content: Record<string, unknown> = {
    schema: MANIFEST_SCHEMA_ID,
    compiler: { name: 'rulec', version: input.compilerVersion },
    policy: { digest: input.policyDigest },
    tokenizer: input.tokenizer,
    layers: { local: input.includeLocal, user: input.includeUser },
    files,
    variants,
    attachments,
    index: resolution.index,
    conflicts: input.conflicts.map((e) => ({ ...e })),
    budgets: { over: input.overruns.map((o) => ({ kind: o.kind, id: o.id, layer: o.layer, tokens: o.tokens, budget: o.budget })) },
    diagnostics: { errors: counts.error, warnings: counts.warning, infos: counts.info, codes: byCode },
  };
  const bundleId = contentId('b-', canonicalJson(content));
  const git = input.git;
  return {
    ...content,
    bundle_id: bundleId,
    revision: { version: input.revision, seq: git?.seq ?? 0 },
    source: { repo: git?.remote ?? null, commit: git?.commit ?? null, dirty: git?.dirty ?? false },
  };
}

export function manifestBytes(manifest: Manifest): string {
  return canonicalJson(manifest);
}

export function bundleDigest(manifest: Manifest): string {
  return digestOf(manifestBytes(manifest));
}
