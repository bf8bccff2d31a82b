/**
 * The manifest (pure): everything a consumer needs to verify and serve a
 * bundle, as canonical JSON. The bundle id hashes the compiled content only
 * (not the commit or revision), so the same rules always give the same id;
 * the bundle digest hashes the whole manifest.
 */
import type { Attachment, SourceRef, Variant } from '../types.js';
import type { Resolution } from '../resolve/resolve.js';
import type { Overrun } from '../validate/budgets.js';
import type { GitInfo } from '../source/git-snapshot.js';
import type { ConflictEvent } from '../conflicts/detect.js';
import type { ProfileFits } from '../profiles/evaluate.js';
import { countBySeverity, type Diagnostic } from '../diagnostics/diagnostic.js';
import { compareCodeUnits } from '../util/compare.js';
import { redactDeep, type Redactions } from '../diagnostics/redact.js';
import { MANIFEST_SCHEMA_ID, sealManifest, type ManifestAttachment, type ManifestContent, type ManifestFile, type ManifestRef,
  type ManifestV1, type ManifestVariant } from '../bundle/model.js';

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
  profiles: Readonly<ProfileFits>;
  /** Detected secrets: masked wherever the manifest quotes source text (globs, reasons, conflict events). */
  redactions: Redactions;
}

const refJson = (r: SourceRef): ManifestRef => (r.importedBy === undefined ? { id: r.id, reason: r.reason } : { id: r.id, reason: r.reason, imported_by: r.importedBy });

/** Drop undefined fields, so the typed value equals what its canonical JSON says. */
function defined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

export function buildManifest(input: ManifestInput): ManifestV1 {
  const { resolution } = input;
  // Keyed by source id (a path): null prototype, so a file named `__proto__` is a key like any other.
  const files: Record<string, ManifestFile> = Object.create(null);
  for (const s of [...resolution.sources.values()].sort((a, b) => compareCodeUnits(a.file.id, b.file.id))) {
    files[s.file.id] = defined<ManifestFile>({
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
    });
  }
  // Keys come from paths: null-prototype objects, so `__proto__` is a key like any other.
  // No path counts: adding an unrelated file to the repository must not change
  // the bundle. The compact index only changes where a directory's context does.
  const variants: Record<string, ManifestVariant> = Object.create(null);
  for (const v of input.variants) {
    variants[v.id] = { sources: v.sources.map(refJson), bytes: v.bytes, tokens: v.tokens, sha256: `sha256:${v.sha256}`, profiles: input.profiles[v.id] ?? {} };
  }
  const attachments: Record<string, ManifestAttachment> = Object.create(null);
  for (const a of input.attachments) {
    attachments[a.id] = { sources: a.sources.map(refJson), globs: a.globs, bytes: a.bytes, tokens: a.tokens, sha256: `sha256:${a.sha256}` };
  }
  const counts = countBySeverity(input.diagnostics);
  const byCode: Record<string, number> = Object.create(null);
  for (const d of input.diagnostics) byCode[d.code] = (byCode[d.code] ?? 0) + 1;
  const content: ManifestContent = {
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
    budgets: { over: input.overruns.map((o) => defined({ kind: o.kind, id: o.id, layer: o.layer, tokens: o.tokens, budget: o.budget })) },
    diagnostics: { errors: counts.error, warnings: counts.warning, infos: counts.info, codes: byCode },
  };
  const git = input.git;
  return sealManifest(redactDeep(content, input.redactions), { version: input.revision, seq: git?.seq ?? 0 },
    { repo: git?.remote ?? null, commit: git?.commit ?? null, dirty: git?.dirty ?? false });
}
