/**
 * compile()'s options and what it does before the pipeline proper — the
 * effective policy (step 1) and discovery's options (step 2) — in a module
 * that loads no stage, so the build cache (src/cache) can read a build's
 * inputs and answer an unchanged rebuild without loading the pipeline.
 */
import { join } from 'node:path';
import { loadPolicy } from './config/load-policy.js';
import { PolicyError } from './config/policy-error.js';
import type { Policy } from './config/policy.js';
import { policyOfTree } from './source/policy-of-tree.js';
import type { RepoSource } from './source/repo-source.js';
import type { OnStage } from './compile-stages.js';
import type { DiscoverOptions } from './discover/discover.js';
import type { Severity } from './diagnostics/diagnostic.js';
import type { TokenCounts } from './validate/token-count.js';
import type { LintMemo } from './validate/lint-rules.js';
import type { GlobMemo } from './resolve/glob-memo.js';
import type { ProfileMemo } from './profiles/profile-memo.js';

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
  /** Told as each stage starts, with the count of what it works on (the CLI's progress line). */
  onStage?: OnStage;
  /**
   * Token counts an earlier build kept (src/cache), by encoding and sha256 of the text: texts
   * found there are not counted again. Given (even empty), the result's `countedTokens` holds
   * every count this build used, for the cache to keep.
   */
  knownTokens?: TokenCounts | null;
  /**
   * Lint results an earlier build kept (src/cache), by lintKey: files found there are not linted
   * again (every file is still scanned for secrets). Given (even empty), the result's `lintMemo`
   * holds what this build's files gave, for the cache to keep.
   */
  knownLint?: LintMemo | null;
  /**
   * What each glob matched in an earlier build (src/cache), used only when that build's path
   * listing is this one's (resolve/glob-memo.ts). Given (even empty), the result's `globMemo`
   * holds what this build's globs matched, for the cache to keep.
   */
  knownGlobs?: GlobMemo | null;
  /**
   * What the agent profiles found in an earlier build (src/cache), each outcome reused while the
   * listing, the links and every file it read are unchanged (profiles/profile-memo.ts). Given (even
   * empty), the result's `profileMemo` holds what this build's profiles found, for the cache to keep.
   */
  knownProfiles?: ProfileMemo | null;
  /**
   * Whether the background worker (tokenizer, agent profiles) stays idle after this compile for
   * the next one in this process (default), or ends as soon as its last job is answered — before
   * the bundle is assembled, where a build's memory peaks (`rulec build` compiles once: its peak
   * RSS on the bench went from 444–450 to 361–388 MiB).
   */
  keepWorker?: boolean;
}

/** Step 1: the effective policy (of the work tree, or of the commit's tree compiled); PolicyError when it has errors. */
export function compilePolicy(options: CompileOptions): Policy {
  const repoDir = options.repoDir ?? '.';
  const loaded = options.source ? policyOfTree(repoDir, options.source, options.policyFile) : loadPolicy(repoDir, options.policyFile);
  if (loaded.diagnostics.some((d) => d.severity === 'error')) {
    throw new PolicyError(loaded.diagnostics);
  }
  const { policy: configured } = loaded.value;
  return options.severity ? { ...configured, severity: { ...configured.severity, ...options.severity } } : configured;
}

/** What step 2 reads with: discovery's options for these compile options. */
export function discoverOptionsOf(options: CompileOptions, policy: Policy): DiscoverOptions {
  const repoDir = options.repoDir ?? '.';
  return { repoDir, managedDir: options.managedDir ?? null, includeLocal: options.includeLocal ?? false, policy,
    outDir: options.outDir ?? join(repoDir, 'bundles'), userHome: options.userHome ?? null, source: options.source ?? null };
}

/** The current UTC date: the only clock read in the pipeline, for override expiry (the build cache dates its memo by it too). */
export function utcToday(): string {
  return new Date().toISOString().slice(0, 10);
}
