/**
 * compile(): the pipeline as a table of contents; each step is one call into
 * the module that owns it.
 *
 * 1. Load the policy (of the work tree, or of the commit's tree being
 *    compiled) and start the background worker that builds the tokenizer.
 * 2. Read the inputs: discover the files, parse them, follow their imports
 *    (discover/read-inputs.ts) — the only step that reads the repository.
 * 3. Check each file's frontmatter against its format's schema.
 * 4. Resolve: each directory's ordered standing sources (variants) and the
 *    lazily attached rules (attachments).
 * 5. On the worker, count the tokens of every block and evaluate the agent
 *    profiles; meanwhile scan for conflicts and run the lint rules here.
 * 6. Render each variant and attachment to its frozen text; check budgets.
 * 7. Finish the conflict events (wasted tokens, cap, overrides).
 * 8. Decide every severity once, mask the secrets found, build the manifest.
 *
 * Every stage result is plain data (no functions, nothing mutated after it
 * is returned), so it can be cached and compared. Writing the bundle is a
 * separate step (emit), so a library caller can inspect a result without
 * touching the disk.
 */
import { join } from 'node:path';
import semver from 'semver';
import type { Attachment, ParsedDoc, SourceFile, Variant } from './types.js';
import { loadPolicy } from './config/load-policy.js';
import { PolicyError } from './config/policy-error.js';
import { compilerVersion } from './config/package-files.js';
import { policyDigest, type Policy } from './config/policy.js';
import { loadFrontmatterSchemas } from './config/frontmatter-schemas.js';
import { policyOfTree } from './source/policy-of-tree.js';
import type { RepoSource } from './source/repo-source.js';
import { readInputs } from './discover/read-inputs.js';
import type { Discovered } from './discover/discover.js';
import { resolve, type Resolution } from './resolve/resolve.js';
import { blockTexts, render } from './render/render.js';
import { checkBudgets } from './validate/budgets.js';
import { checkAllFrontmatter } from './validate/check-frontmatter.js';
import { runLint } from './validate/lint-rules.js';
import { tokenCounter } from './validate/token-count.js';
import { applySeverities, severityDecision } from './validate/severity.js';
import { secretSites } from './validate/lint/secrets.js';
import { startBackground, type Background } from './worker/pool.js';
import { DEFAULT_ENABLED_PROFILES } from './profiles/registry.js';
import { profileJob } from './profiles/profile-job.js';
import { finishConflicts, scanConflicts, type ConflictResult } from './conflicts/detect.js';
import { buildManifest } from './emit/manifest.js';
import { bundleDigest, type ManifestV1 } from './bundle/model.js';
import { sortDiagnostics, type Diagnostic, type Severity } from './diagnostics/diagnostic.js';
import { redactDeep, redactionsOf, type Redactions } from './diagnostics/redact.js';
import { UsageError } from './diagnostics/errors.js';
import { pushAll } from './util/push-all.js';

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
  /** Discovery's result with the files read through imports: every file this build read. */
  discovered: Discovered;
  policy: Policy;
  sourceTokens: Map<string, number>;
  /**
   * Conflict events (also in the manifest) and their diagnostics. Which rule wins each topic
   * of a variant: topicsFor(resolution, policy, variantId) (conflicts/topics-for.ts).
   */
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
  const read = await readInputs({ repoDir, managedDir: options.managedDir ?? null, includeLocal: options.includeLocal ?? false, policy,
    outDir: options.outDir ?? join(repoDir, 'bundles'), userHome: options.userHome ?? null, source: options.source ?? null });
  pushAll(diagnostics, read.diagnostics);
  const { discovered, docs, imports } = read.value;
  pushAll(diagnostics, checkAllFrontmatter(discovered.files, docs, loadFrontmatterSchemas()));

  const resolved = resolve({ files: discovered.files, docs, paths: discovered.paths, imports });
  pushAll(diagnostics, resolved.diagnostics);

  // Count the blocks and evaluate the agent profiles on the worker while this thread finds conflicts and lints.
  const blocks = blockTexts(resolved.value);
  const counted = background.count(blocks);
  const profiled = background.profiles(profileJob(discovered.files, discovered.paths, resolved.value, policy,
    { ...imports, docs, places: new Map(discovered.files.map((f) => [f.id, f])) }));
  const scan = scanConflicts(resolved.value, policy);
  const decide = severityDecision(policy);
  const countedTexts = background.count(scan.texts);
  pushAll(diagnostics, runLint(lintInputs(discovered.files, docs), decide));

  const counter = tokenCounter(policy.tokenizer, countsOf(blocks, await counted));
  const rendered = render(resolved.value, counter);
  const budgets = checkBudgets(rendered.variants, rendered.attachments, discovered.files, rendered.sourceTokens, policy);
  pushAll(diagnostics, budgets.diagnostics);
  const profiles = await profiled;
  pushAll(diagnostics, profiles.diagnostics);

  const textCounter = tokenCounter(policy.tokenizer, countsOf(scan.texts, await countedTexts));
  const conflicts = finishConflicts(scan, policy, textCounter, options.today ?? utcToday());
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
    conflicts: { events, diagnostics: redactDeep(conflicts.diagnostics, redactions) },
    diagnostics: final,
    redactions,
  };
}

/** Token counts by text, from the worker's answer for `texts` in order. */
function countsOf(texts: readonly string[], counts: readonly number[]): Map<string, number> {
  return new Map(texts.map((t, i) => [t, counts[i] ?? 0]));
}

function lintInputs(files: readonly SourceFile[], docs: ReadonlyMap<string, ParsedDoc>): { file: SourceFile; doc: ParsedDoc }[] {
  return files.flatMap((file) => {
    const doc = docs.get(file.id);
    return doc ? [{ file, doc }] : [];
  });
}

// Lives in a leaf module so the CLI can recognise it without loading the pipeline.
export { PolicyError };

/** The current UTC date: the only clock read in the pipeline, for override expiry. */
function utcToday(): string {
  return new Date().toISOString().slice(0, 10);
}
