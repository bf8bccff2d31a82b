/**
 * compile(): the pipeline as a table of stages, run in order.
 *
 *   policy → discover → parse → imports → resolve → render → validate → manifest
 *
 * Only policy loading, discover and imports read files; the rest are
 * functions of their inputs. Writing the bundle is a separate step (emit),
 * so a library caller can inspect a result without touching the disk.
 */
import { isAbsolute, join, relative } from 'node:path';
import semver from 'semver';
import type { Attachment, ParsedDoc, Variant } from './types.js';
import { loadPolicy } from './config/load-policy.js';
import { PolicyError } from './config/policy-error.js';
import { compilerVersion } from './config/package-files.js';
import { policyDigest, type Policy } from './config/policy.js';
import { discover, type Discovered } from './discover/discover.js';
import { followImports } from './discover/follow-imports.js';
import { parseDoc } from './parse/parse-doc.js';
import { resolve, type Resolution } from './resolve/resolve.js';
import { expandImports, type ImportContext } from './resolve/expand-imports.js';
import { blockTexts, render } from './render/render.js';
import { checkBudgets } from './validate/budgets.js';
import { checkFrontmatter } from './validate/check-frontmatter.js';
import { loadFrontmatterSchemas } from './config/frontmatter-schemas.js';
import { runLint } from './validate/lint-rules.js';
import { tokenCounter } from './validate/token-count.js';
import { startBackground, type Background } from './worker/pool.js';
import { DEFAULT_ENABLED_PROFILES } from './profiles/registry.js';
import type { ProfileJob } from './profiles/build-view.js';
import { applySeverities, severityDecision } from './validate/severity.js';
import { buildManifest } from './emit/manifest.js';
import { bundleDigest, type ManifestV1 } from './bundle/model.js';
import { diag, sortDiagnostics, type Diagnostic, type Severity } from './diagnostics/diagnostic.js';
import { redactDeep, redactionsOf, type Redactions } from './diagnostics/redact.js';
import { secretSites } from './validate/lint/secrets.js';
import { UsageError } from './diagnostics/errors.js';
import { scanConflicts, type ConflictResult } from './conflicts/detect.js';
import { toPosix } from './util/posix-path.js';
import { pushAll } from './util/push-all.js';
import type { RepoSource } from './source/repo-source.js';

export interface CompileOptions {
  /** Repository directory (default: the current directory). */
  repoDir?: string;
  /** Managed-layer directory; overrides the policy's managed.dir. */
  managedDir?: string | null;
  /** Policy file; default `.rulec/policy.yaml` in the repo when present. */
  policyFile?: string;
  /** Include personal, unreviewed files (CLAUDE.local.md …). */
  includeLocal?: boolean;
  /** Home directory whose personal agent files form the user layer (explain only; never in a bundle). */
  userHome?: string | null;
  /** Where bundles are written (default `<repo>/bundles`); never read as input. */
  outDir?: string;
  /**
   * Today's date (YYYY-MM-DD), for the expiry of conflict overrides only; the CLI
   * passes the UTC date. It never enters the manifest: an expired override is an
   * error, so no bundle is written with one.
   */
  today?: string;
  /** Semver recorded as the bundle revision (default 0.1.0). */
  revision?: string;
  /** One-off severity overrides (`--severity CODE=LEVEL`), merged over the policy's `severity:`. */
  severity?: Readonly<Record<string, Severity | 'off'>>;
  /** Compile a commit's tree read from git objects (src/source) instead of the work tree at repoDir. */
  source?: RepoSource | null;
}

export interface CompileResult {
  manifest: ManifestV1;
  /** `sha256:` + sha256 of the canonical manifest bytes. */
  digest: string;
  variants: Variant[];
  attachments: Attachment[];
  resolution: Resolution;
  discovered: Discovered;
  policy: Policy;
  sourceTokens: Map<string, number>;
  /** Conflict events (also in the manifest), and per variant which rule won each topic. */
  conflicts: ConflictResult;
  /** Sorted, severities as configured; `off` codes removed; detected secrets masked. */
  diagnostics: Diagnostic[];
  /**
   * The secrets detected in this build's files (whatever their codes' severities), for every
   * output surface to mask. Diagnostics and conflict events here are already redacted; only the
   * rendered context (variants, attachments) holds secrets verbatim: it is the agent's input.
   */
  redactions: Redactions;
}

export async function compile(options: CompileOptions = {}): Promise<CompileResult> {
  const revision = options.revision ?? '0.1.0';
  if (!semver.valid(revision)) throw new UsageError(`--revision must be a semantic version, got "${revision}"`);
  const repoDir = options.repoDir ?? '.';
  const loaded = options.source ? policyOfTree(repoDir, options.source, options.policyFile) : loadPolicy(repoDir, options.policyFile);
  if (loaded.diagnostics.some((d) => d.severity === 'error')) {
    throw new PolicyError(loaded.diagnostics);
  }
  const policy = options.severity ? { ...loaded.policy, severity: { ...loaded.policy.severity, ...options.severity } } : loaded.policy;

  // The tokenizer's rank table takes ~1 s of CPU to build: a worker builds it on the other core,
  // then counts tokens and evaluates agent profiles while this thread lints.
  const background = startBackground(policy.tokenizer, (policy.profiles?.enabled ?? DEFAULT_ENABLED_PROFILES).length > 0);
  try {
    return await compileWith(options, policy, revision, background);
  } finally {
    await background.close();
  }
}

async function compileWith(options: CompileOptions, policy: Policy, revision: string, background: Background): Promise<CompileResult> {
  const repoDir = options.repoDir ?? '.';
  const diagnostics: Diagnostic[] = [];
  const found = await discover({ repoDir, managedDir: options.managedDir ?? null, includeLocal: options.includeLocal ?? false, policy,
    outDir: options.outDir ?? join(repoDir, 'bundles'), userHome: options.userHome ?? null, source: options.source ?? null });
  pushAll(diagnostics, found.diagnostics);
  const discovered = found.value;

  const docs = new Map<string, ParsedDoc>();
  for (const file of discovered.files) {
    const parsed = parseDoc(file);
    docs.set(file.id, parsed.value);
    pushAll(diagnostics, parsed.diagnostics);
  }

  const roots = {
    repo: toPosix(discovered.rootReal),
    repoReal: discovered.rootReal,
    managedReal: discovered.managedReal,
    ...(discovered.managedReal ? { managed: toPosix(discovered.managedReal) } : {}),
  };
  const followed = followImports(discovered.files, docs, {
    roots, maxDepth: policy.imports.max_depth, maxFiles: policy.imports.max_files, maxBytes: policy.discover.max_file_bytes,
    isExcluded: discovered.isExcluded, parse: parseDoc, readRepo: discovered.readRepo,
  });
  pushAll(diagnostics, followed.diagnostics);
  const fmSchemas = loadFrontmatterSchemas();
  for (const file of discovered.files) {
    const doc = docs.get(file.id);
    if (doc) pushAll(diagnostics, checkFrontmatter(file, doc, fmSchemas));
  }

  if (discovered.git) discovered.git.dirty = discovered.files.some((f) => discovered.isDirty(f));

  const imports = { roots, maxDepth: policy.imports.max_depth, capped: followed.capped, refused: followed.refused };
  const resolved = resolve({ files: discovered.files, docs, paths: discovered.paths, imports });
  pushAll(diagnostics, resolved.diagnostics);

  // Count the blocks and evaluate the agent profiles on the worker while this thread finds conflicts and lints.
  const blocks = blockTexts(resolved.value);
  const counted = background.count(blocks);
  const profiled = background.profiles(profileJob(discovered, resolved.value, policy,
    { ...imports, docs, places: new Map(discovered.files.map((f) => [f.id, f])) }));
  const scan = scanConflicts(resolved.value, policy);
  const decide = severityDecision(policy);
  const countedTexts = background.count(scan.texts);
  pushAll(diagnostics, runLint(discovered.files.flatMap((file) => {
    const doc = docs.get(file.id);
    return doc ? [{ file, doc }] : [];
  }), decide));
  const counts = await counted;
  const counter = tokenCounter(policy.tokenizer, new Map(blocks.map((b, i) => [b, counts[i] ?? 0])));
  const rendered = render(resolved.value, counter);
  const budgets = checkBudgets(rendered.variants, rendered.attachments, discovered.files, rendered.sourceTokens, policy);
  pushAll(diagnostics, budgets.diagnostics);
  if (discovered.localExcluded.length > 0) diagnostics.push(localNote(discovered.localExcluded));
  const profiles = await profiled;
  pushAll(diagnostics, profiles.diagnostics);
  const textCounts = await countedTexts;
  const conflicts = scan.finish(tokenCounter(policy.tokenizer, new Map(scan.texts.map((t, i) => [t, textCounts[i] ?? 0]))), options.today ?? utcToday());
  pushAll(diagnostics, conflicts.diagnostics);

  const redactions = redactionsOf(secretSites(docs.values()));
  const final = redactDeep(sortDiagnostics(applySeverities(diagnostics, decide)), redactions);
  const events = redactDeep(conflicts.events, redactions);
  const manifest = buildManifest({
    resolution: resolved.value,
    variants: rendered.variants,
    attachments: rendered.attachments,
    overruns: budgets.overruns,
    diagnostics: final,
    git: discovered.git,
    revision,
    compilerVersion: compilerVersion(),
    policyDigest: policyDigest(policy),
    tokenizer: policy.tokenizer,
    includeLocal: options.includeLocal ?? false,
    includeUser: Boolean(options.userHome),
    sourceTokens: rendered.sourceTokens,
    conflicts: events,
    profiles: profiles.perVariant,
    redactions,
  });
  return {
    manifest,
    digest: bundleDigest(manifest),
    variants: rendered.variants,
    attachments: rendered.attachments,
    resolution: resolved.value,
    discovered,
    policy,
    sourceTokens: rendered.sourceTokens,
    conflicts: { events, diagnostics: redactDeep(conflicts.diagnostics, redactions), topicsFor: (v) => redactDeep(conflicts.topicsFor(v), redactions) },
    diagnostics: final,
    redactions,
  };
}

// Lives in a leaf module so the CLI can recognise it without loading the pipeline.
export { PolicyError };

/** What the worker needs to run the enabled agent profiles over this build. */
function profileJob(discovered: Discovered, res: Resolution, policy: Policy, imports: ImportContext): ProfileJob {
  const { enabled, ...options } = policy.profiles ?? {};
  return {
    files: discovered.files.filter((f) => f.root === 'repo').map((f) => [f.rel, f.bytes]),
    links: discovered.files.filter((f) => f.root === 'repo' && f.linkTarget !== undefined).map((f) => [f.rel, f.linkTarget as string]),
    paths: [...discovered.paths],
    variants: res.variants.map((v) => ({ id: v.id, dirs: v.dirs, pathCount: v.pathCount })),
    enabled: [...(enabled ?? DEFAULT_ENABLED_PROFILES)],
    options: options as Record<string, Record<string, unknown>>,
    canonical: Object.fromEntries(res.variants.map((v) => [v.id, v.sources.map((r) => r.id)])),
    // Every import target, also where a chain already holds the file (`@AGENTS.md` beside AGENTS.md).
    imported: [...new Set([...res.sources.keys()].flatMap((id) => expandImports(id, imports).refs.map((r) => r.id)))],
  };
}

function localNote(files: string[]): Diagnostic {
  const shown = files.slice(0, 3).join(', ') + (files.length > 3 ? ` and ${files.length - 3} more` : '');
  return diag('RC1004', { file: '', message: `${files.length} local file${files.length === 1 ? '' : 's'} not included: ${shown}` });
}

/**
 * The policy of a commit's tree: its .rulec/policy.yaml, or the policy file
 * named inside the repository as that file of the tree (so base and head each
 * bring their own); a policy file outside the repository is read from disk.
 */
function policyOfTree(repoDir: string, source: RepoSource, policyFile: string | undefined): ReturnType<typeof loadPolicy> {
  const rel = policyFile === undefined ? undefined : relative(repoDir, policyFile);
  if (rel !== undefined && (rel === '' || rel.startsWith('..') || isAbsolute(rel))) return loadPolicy(repoDir, policyFile);
  const read = (path: string): string | null => {
    const r = source.read(path, path, 1 << 20);
    if (r.ok) return Buffer.from(r.bytes).toString('utf8');
    if (r.missing) return null;
    throw new UsageError(`cannot read ${path} in ${source.label}: ${r.diagnostic.message}`);
  };
  return loadPolicy(repoDir, undefined, read, rel === undefined ? undefined : toPosix(rel));
}

/** The current UTC date: the only clock read in the pipeline, for override expiry. */
function utcToday(): string {
  return new Date().toISOString().slice(0, 10);
}
