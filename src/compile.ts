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
 * 5. On the worker, lint the files (posted before step 4: lint needs only
 *    the files), count the tokens of every block and evaluate the agent
 *    profiles, from the moment the plan has every block and variant (before
 *    step 4 matches the rules' globs); meanwhile match the globs and scan for
 *    conflicts here.
 * 6. Render each variant and attachment to its frozen text; check budgets.
 * 7. Finish the conflict events (wasted tokens, cap, overrides).
 * 8. Decide every severity once, mask the secrets found, build the manifest.
 *
 * Every stage result is plain data (no functions, nothing mutated after it
 * is returned), so it can be cached and compared. Writing the bundle is a
 * separate step (emit), so a library caller can inspect a result without
 * touching the disk. The build cache (src/cache) stays outside too: a caller
 * may read the inputs first (steps 1–2, `ahead`), pass the token counts it
 * kept (`knownTokens`) and keep those the result reports (`countedTokens`),
 * and likewise the lint findings per file (`knownLint`, `lintMemo`).
 */
import semverValid from 'semver/functions/valid.js';
import type { Attachment, ParsedDoc, SourceFile, StageResult, Variant } from './types.js';
import { PolicyError } from './config/policy-error.js';
import { compilerVersion } from './config/package-files.js';
import { policyDigest, type Policy } from './config/policy.js';
import { loadFrontmatterSchemas } from './config/frontmatter-schemas.js';
import { compilePolicy, discoverOptionsOf, utcToday, type CompileOptions } from './compile-options.js';
import { readInputs, type Inputs } from './discover/read-inputs.js';
import type { Discovered } from './discover/discover.js';
import { attachRules, planResolution, type Resolution } from './resolve/resolve.js';
import { emptyGlobMemo, GlobMatches, type GlobMemo } from './resolve/glob-memo.js';
import { blockTexts, render, type Rendered } from './render/render.js';
import { checkBudgets, type Overrun } from './validate/budgets.js';
import { checkAllFrontmatter } from './validate/check-frontmatter.js';
import type { LintMemo } from './validate/lint-rules.js';
import type { LintAnswer, LintJob } from './validate/lint-job.js';
import { tokenCounter, type TokenCounts } from './validate/token-count.js';
import { applySeverities, severityDecision } from './validate/severity.js';
import { startBackground, type Background } from './worker/pool.js';
import { backgroundOf } from './worker/threads.js';
import { profileJob } from './profiles/profile-job.js';
import type { ProfileEvaluation } from './profiles/evaluate.js';
import { emptyProfileMemo, type ProfileMemo } from './profiles/profile-memo.js';
import { finishConflicts, scanConflicts, type ConflictEvent } from './conflicts/detect.js';
import { buildManifest } from './emit/manifest.js';
import { bundleDigest, type ManifestV1 } from './bundle/model.js';
import { diag, sortDiagnostics, type Diagnostic } from './diagnostics/diagnostic.js';
import { redact, redactDeep, redactionsOf, type Redactions } from './diagnostics/redact.js';
import { compareCodeUnits } from './util/compare.js';
import { UsageError } from './util/errors.js';
import { pushAll } from './util/push-all.js';

/**
 * Steps done ahead of compile(): the policy (a build starts its worker before importing the
 * pipeline), and the inputs read (the build memo looks at them before compiling).
 */
export interface ReadInputs {
  policy: Policy;
  read?: StageResult<Inputs>;
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
   * The conflict stage's result: its events (also in the manifest) and their diagnostics. Which
   * rule wins each topic of a variant: topicsFor(resolution, policy, variantId) (conflicts/topics-for.ts).
   */
  conflicts: StageResult<ConflictEvent[]>;
  /** Sorted, severities as configured; `off` codes removed; detected secrets masked. */
  diagnostics: Diagnostic[];
  /**
   * The secrets detected in this build's files (whatever their codes' severities), for every
   * output surface to mask. Diagnostics and conflict events here are already redacted; only the
   * rendered context (variants, attachments) holds secrets verbatim: it is the agent's input.
   */
  redactions: Redactions;
  /** With `knownTokens`: every digest-keyed token count this build used (encoding → sha256 → count); else null. */
  countedTokens: TokenCounts | null;
  /**
   * With `knownLint`: the lint results of this build's files, but those with a detected secret
   * (lint-rules.ts) — none at all when the build found a secret anywhere; else null.
   */
  lintMemo: LintMemo | null;
  /** With `knownGlobs`: what this build's globs matched (resolve/glob-memo.ts) — none when it found a secret anywhere; else null. */
  globMemo: GlobMemo | null;
  /** With `knownProfiles`: what this build's agent profiles found (profiles/profile-memo.ts) — none when it found a secret anywhere; else null. */
  profileMemo: ProfileMemo | null;
}

export async function compile(options: CompileOptions = {}, ahead?: ReadInputs): Promise<CompileResult> {
  const revision = options.revision ?? '0.1.0';
  if (!semverValid(revision)) throw new UsageError(`--revision must be a semantic version, got "${revision}"`);
  // 1. The policy, and the worker.
  const policy = ahead?.policy ?? compilePolicy(options);
  // A worker (started ahead by the caller, or now) loads the tokenizer on the other core, then
  // counts tokens and evaluates agent profiles while this thread scans conflicts and lints.
  const { encoding, profiles } = backgroundOf(policy);
  const background = startBackground(encoding, profiles);
  const known = options.knownTokens ?? null;
  // Posted first, so the worker takes the known counts before any count job.
  const ledger = known ? background.startLedger(known) : null;
  try {
    const read = ahead?.read ?? await readCompileStage(options, policy);
    return await compileWith(options, policy, revision, { background, ledger }, read);
  } finally {
    // Closed already unless a stage threw.
    await background.close(options.keepWorker);
  }
}

/** Step 2: read the inputs. */
function readCompileStage(options: CompileOptions, policy: Policy): Promise<StageResult<Inputs>> {
  (options.onStage ?? ((): void => undefined))('discover');
  return readInputs(discoverOptionsOf(options, policy), options.onStage);
}

async function compileWith(options: CompileOptions, policy: Policy, revision: string,
  { background, ledger }: { background: Background; ledger: Promise<void> | null }, read: StageResult<Inputs>): Promise<CompileResult> {
  const diagnostics: Diagnostic[] = [];
  const stage = options.onStage ?? ((): void => undefined);
  // 2. The inputs, read.
  pushAll(diagnostics, read.diagnostics);
  const { discovered, docs, imports } = read.value;
  // 3. Frontmatter. Lint goes to the worker first: it needs only the files, and its answer (findings,
  // what to remember, the secrets found) only at the end.
  pushAll(diagnostics, checkAllFrontmatter(discovered.files, docs, loadFrontmatterSchemas()));
  const linting = background.lint(lintJob(discovered.files, docs, policy, options.knownLint ?? new Map()));
  // 4. Resolve. 5. Tokens and profiles on the worker (posted as soon as the plan has every block
  // and variant, before the globs are matched); the globs and conflicts here meanwhile.
  stage('resolve', discovered.paths.length);
  const planned = planResolution({ files: discovered.files, docs, paths: discovered.paths, imports });
  pushAll(diagnostics, planned.diagnostics);
  const blocks = blockTexts(planned.value);
  const counted = background.count(blocks);
  const profiled = background.profiles(profileJob(discovered.files, discovered.paths, planned.value, policy,
    { ...imports, docs, places: new Map(discovered.files.map((f) => [f.id, f])) }, options.knownProfiles ?? null));
  const globs = options.knownGlobs ? new GlobMatches(discovered.paths, options.knownGlobs) : null;
  const resolved = attachRules(planned.value, discovered.paths, globs);
  pushAll(diagnostics, resolved.diagnostics);
  stage('conflicts', resolved.value.sources.size);
  const scan = scanConflicts(resolved.value, policy);
  const countedTexts = background.count(scan.texts);
  const decide = severityDecision(policy);
  // 6. Render and budgets.
  stage('count', blocks.length);
  const counts = countsOf(blocks, await counted);
  stage('render', resolved.value.variants.length);
  const rendered = render(resolved.value, tokenCounter(policy.tokenizer, counts));
  const budgets = checkBudgets(rendered.variants, rendered.attachments, discovered.files, rendered.sourceTokens, policy);
  pushAll(diagnostics, budgets.diagnostics);
  const profiles = await profiled;
  pushAll(diagnostics, profiles.diagnostics);
  const linted = await linting;
  pushAll(diagnostics, linted.diagnostics);
  // 7. Conflict events.
  const textCounter = tokenCounter(policy.tokenizer, countsOf(scan.texts, await countedTexts));
  // The worker's last answer: it is released (parked, or ended) before the bundle is assembled.
  if (ledger) await ledger;
  const countedTokens = ledger ? await background.takeLedger() : null;
  await background.close(options.keepWorker);
  const conflicts = finishConflicts(scan, policy, textCounter, options.today ?? utcToday());
  pushAll(diagnostics, conflicts.diagnostics);
  // 8. Severities, secrets, manifest.
  const assembled = assemble({ options, policy, revision, discovered, resolution: resolved.value, rendered, budgets, profiles, conflicts,
    linted, globMemo: globs?.memo() ?? null, diagnostics: applySeverities(diagnostics, decide) });
  return { ...assembled, countedTokens };
}

interface Parts {
  options: CompileOptions;
  policy: Policy;
  revision: string;
  discovered: Discovered;
  resolution: Resolution;
  rendered: Rendered;
  budgets: StageResult<Overrun[]>;
  profiles: StageResult<ProfileEvaluation>;
  conflicts: StageResult<ConflictEvent[]>;
  /** Lint's answer: what it remembers of this build's files and every secret detected in them (lint-job.ts). */
  linted: LintAnswer;
  /** What this build's globs matched (glob-memo.ts), when the caller gave `knownGlobs`. */
  globMemo: GlobMemo | null;
  /** Every diagnostic of the build, severities decided. */
  diagnostics: Diagnostic[];
}

/**
 * RC1012 for each path the manifest lists by name (a file, a directory of the index) that holds a
 * detected secret: the bundle could hold it only unmasked, or masked and then wrong, so none is
 * written. (The manifest still masks it: the result itself never holds the secret.)
 */
function secretPaths(p: Parts, redactions: Redactions): Diagnostic[] {
  if (redactions.pieces.length === 0) return [];
  const named = [...p.discovered.files.map((f) => f.id), ...Object.keys(p.resolution.index)];
  return [...new Set(named.filter((k) => redact(k, redactions) !== k))].sort(compareCodeUnits)
    .map((k) => diag('RC1012', { file: k, message: 'this path holds a detected secret: a bundle cannot list it without the secret, nor masked and still right; nothing is written' }));
}

/** Step 8: mask the secrets found in every output but the rendered context, and build the manifest. */
function assemble(p: Parts): Omit<CompileResult, 'countedTokens'> {
  const redactions = redactionsOf(p.linted.secrets);
  const profileMemo = p.profiles.value.memo;
  const diagnostics = redactDeep(sortDiagnostics([...p.diagnostics, ...secretPaths(p, redactions)]), redactions);
  const events = redactDeep(p.conflicts.value, redactions);
  const manifest = buildManifest({
    resolution: p.resolution,
    variants: p.rendered.variants,
    attachments: p.rendered.attachments,
    overruns: p.budgets.value,
    diagnostics,
    git: p.discovered.git,
    revision: p.revision,
    compilerVersion: compilerVersion(),
    policyDigest: policyDigest(p.policy),
    tokenizer: p.policy.tokenizer,
    includeLocal: p.options.includeLocal ?? false,
    includeUser: Boolean(p.options.userHome),
    sourceTokens: p.rendered.sourceTokens,
    conflicts: events,
    profiles: p.profiles.value.fits,
    redactions,
  });
  return {
    manifest,
    digest: bundleDigest(manifest),
    variants: p.rendered.variants,
    attachments: p.rendered.attachments,
    resolution: p.resolution,
    discovered: p.discovered,
    policy: p.policy,
    sourceTokens: p.rendered.sourceTokens,
    conflicts: { value: events, diagnostics: redactDeep(p.conflicts.diagnostics, redactions) },
    diagnostics,
    redactions,
    // Nothing read from the files of a build with a secret anywhere: a finding in one file may quote
    // another file's secret, and a glob comes from a file too.
    lintMemo: p.options.knownLint ? (redactions.sites.length === 0 ? p.linted.memo : new Map()) : null,
    globMemo: p.globMemo && redactions.sites.length > 0 ? emptyGlobMemo(p.globMemo.listing) : p.globMemo,
    // A finding's detail and a dropped path come from the files too.
    profileMemo: profileMemo && redactions.sites.length > 0 ? emptyProfileMemo(profileMemo.basis) : profileMemo,
  };
}

/** Token counts by text, from the worker's answer for `texts` in order. */
function countsOf(texts: readonly string[], counts: readonly number[]): Map<string, number> {
  return new Map(texts.map((t, i) => [t, counts[i] ?? 0]));
}

/** Lint's job: every file with a document, in the order the documents were parsed (the secret sites follow it). */
function lintJob(files: readonly SourceFile[], docs: ReadonlyMap<string, ParsedDoc>, policy: Policy, known: LintMemo): LintJob {
  const byId = new Map(files.map((f) => [f.id, f]));
  return { files: [...docs.keys()].flatMap((id) => byId.get(id) ?? []), policy, known };
}

// Lives in a leaf module so the CLI can recognise it without loading the pipeline.
export { PolicyError };
// Step 1 and the options, in a module of their own: the build cache reads the inputs without loading the pipeline.
export { compilePolicy, discoverOptionsOf, utcToday, type CompileOptions };
