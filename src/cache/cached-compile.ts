/**
 * compile() with the build cache around it (the I/O edge; compile stays pure
 * of it and takes what the cache holds as plain data).
 *
 * compileCounted(): token counts only (lint, explain).
 *
 * Both serve commands that compile once per process: the worker ends with its
 * last job (compile-options.ts `keepWorker`) instead of idling till exit.
 * compileOrReplay() (build):
 * 1. Without a cache, compile.
 * 2. Load the policy and discover the inputs (the git listing, every
 *    instruction and managed file read); take the last build's memo when it
 *    was made under this policy (read while git answers discovery), and ask
 *    its import reads again.
 * 3. Same fingerprint (build-memo.ts) and `reuse(record)` agrees (the bundle
 *    it names is still there, intact): replay the record. Nothing is parsed
 *    or compiled.
 * 4. Otherwise parse and follow imports from that same discovery, compile
 *    with the token counts the cache kept, and keep the counts this build
 *    used. The caller keeps the memo once it has written the bundle.
 */
import type { CompileResult } from '../compile.js';
import { compilePolicy, discoverOptionsOf, utcToday, type CompileOptions } from '../compile-options.js';
import { discover } from '../discover/discover.js';
import { rereadImports, type ImportRead } from '../discover/import-reads.js';
import { excluder } from '../discover/exclusions.js';
import { repoReader } from '../discover/repo-reader.js';
import { policyDigest, type Policy } from '../config/policy.js';
import type { BuildReport } from '../report/reporters/types.js';
import type { BuildCache } from './build-cache.js';
import { compilerIdentity } from './compiler-identity.js';
import { buildFingerprint, type MemoRecord } from './build-memo.js';
import { stampBundle } from './bundle-stamp.js';
import { prestartBackground } from '../worker/threads.js';

export type CachedBuild =
  | { kind: 'replay'; record: MemoRecord; policy: Policy }
  | { kind: 'compiled'; result: CompileResult; memo: MemoBasis | null };

/** What a compiled build's memo is made of, besides its result and report. */
export interface MemoBasis {
  fingerprint: string;
  reads: readonly ImportRead[];
}

/** compile(), seeded with the cache's token counts; the counts it used are kept for the next run. */
export async function compileCounted(options: CompileOptions, cache: BuildCache): Promise<CompileResult> {
  const policy = compilePolicy(options);
  prestartBackground(policy);
  const { compile } = await import('../compile.js');
  const result = await compile({ ...options, ...fromCache(cache) }, { policy });
  keepCounts(cache, result);
  return result;
}

export async function compileOrReplay(options: CompileOptions, cache: BuildCache, reuse: (record: Omit<MemoRecord, 'report'>) => boolean): Promise<CachedBuild> {
  // A disabled cache knows no counts and keeps none: the plain compile.
  if (!cache.enabled) return { kind: 'compiled', result: await compileCounted(options, cache), memo: null };
  const dated = { ...options, today: options.today ?? utcToday() };
  const policy = compilePolicy(dated);
  const discoverOptions = discoverOptionsOf(dated, policy);
  dated.onStage?.('discover');
  // Discovery first: it hands git its questions and waits on them (a walk of the work tree, half
  // a second on 100,000 files), and the last build's record is read and parsed meanwhile (0.1 s
  // for the bench's 9.5 MB).
  const discovering = discover(discoverOptions);
  const record = cache.memo(policyDigest(policy));
  // No record, no replay: the worker starts now, beside discovery.
  if (record === null) prestartBackground(policy);
  const found = await discovering;
  // Hashed once: the record's check and the new record's key differ only in the import reads.
  const key = buildFingerprint({ compiler: compilerIdentity(), policy, revision: dated.revision ?? '0.1.0',
    includeLocal: dated.includeLocal ?? false, today: dated.today, found });
  if (record !== null) {
    const reads = rereadImports(record.head.reads, { readRepo: repoReader(found.value.rootReal, discoverOptions.source ?? null), managedReal: found.value.managedReal,
      maxBytes: policy.discover.max_file_bytes, isExcluded: excluder(found.value.exclusions) });
    // The report is parsed only now, for a replay (a damaged one is a note, and the build compiles).
    const report = key(reads) === record.head.fingerprint ? record.report() : null;
    if (report !== null && reuse(record.head)) return { kind: 'replay', record: { ...record.head, report }, policy };
  }
  // The pipeline is loaded only now: a replay never needs it. A refused replay starts the worker
  // here (without a record it started before discovery).
  if (record !== null) prestartBackground(policy);
  const [{ compile }, { followInputs }] = await Promise.all([import('../compile.js'), import('../discover/read-inputs.js')]);
  const read = followInputs(found, discoverOptions, dated.onStage);
  const result = await compile({ ...dated, ...fromCache(cache) }, { policy, read });
  keepCounts(cache, result);
  const reads = read.value.importReads;
  return { kind: 'compiled', result, memo: { fingerprint: key(reads), reads } };
}

/**
 * What the cache hands a compile: the counts, lint results, glob matches and profile outcomes it kept; and, as
 * every caller here compiles once per process, the worker ends with its last job.
 */
function fromCache(cache: BuildCache): Pick<CompileOptions, 'knownTokens' | 'knownLint' | 'knownGlobs' | 'knownProfiles' | 'keepWorker'> {
  return { knownTokens: cache.knownTokens(), knownLint: cache.knownLint(), knownGlobs: cache.knownGlobs(), knownProfiles: cache.knownProfiles(),
    keepWorker: false };
}

/** Record a build written to `dir` for the next run (not one whose files hold a detected secret: see build-memo.ts). */
export function keepMemo(cache: BuildCache, memo: MemoBasis | null, result: CompileResult, report: BuildReport, dir: string): void {
  const stamp = memo === null || result.redactions.sites.length > 0 ? null : stampBundle(dir);
  if (memo === null || stamp === null) return;
  const { written: _w, check: _c, repo: _r, policy_file: _p, ...rest } = report;
  cache.keepMemo(policyDigest(result.policy), {
    fingerprint: memo.fingerprint, bundle_id: result.manifest.bundle_id, digest: result.digest, stamp, reads: [...memo.reads],
    report: { ...rest, repo: '', policy_file: null, written: null, check: null },
  });
}

/**
 * Keep the token counts, lint results, glob matches and profile outcomes the build used (none of a build that found a secret:
 * compile.ts). Such a build also drops the last build's record: its report may quote what is now
 * a detected secret.
 */
function keepCounts(cache: BuildCache, result: CompileResult): void {
  if (result.countedTokens) cache.keepTokens(result.countedTokens);
  if (result.lintMemo) cache.keepLint(result.lintMemo);
  if (result.globMemo) cache.keepGlobs(result.globMemo);
  if (result.profileMemo) cache.keepProfiles(result.profileMemo);
  if (result.redactions.sites.length > 0) cache.forgetMemo();
}
