/**
 * The build cache, `<repo>/.rulec/cache/` (I/O at the edges of a build: read
 * before, written after; the pipeline only ever sees plain data):
 *
 * - `tokens`: token counts by encoding and sha256 of the counted text
 *   (token-store.ts). Rewritten by every build with exactly the counts it
 *   used, so it never grows past one build's worth.
 * - `build`: the last build's memo (build-memo.ts), made under the policy
 *   its header names.
 * - `lint`: each file's lint findings by its content and place (lint-store.ts),
 *   rewritten by every build with its own files' — emptied by a build that
 *   found a secret anywhere (no finding that might quote one goes to disk),
 *   which also removes `build`.
 * - `globs`: what each glob of the last build matched, by position in its path
 *   listing (glob-store.ts; resolve/glob-memo.ts says when a build uses it),
 *   rewritten by every build with its own globs' — emptied like `lint`.
 * - `profiles`: what each agent profile found in each session class, with the
 *   files each run read (profile-store.ts; profiles/profile-memo.ts says when
 *   a build uses it), rewritten with the outcomes the build used — emptied
 *   like `lint`.
 *
 * Each file is checked whole (cache-file.ts) and used only when it was made
 * by this very compiler (compiler-identity.ts); anything else is a note
 * (RC1009) and a cold build, never a failure. A cache git tracks is never
 * used (cache-dir.ts, RC1010). Writes that fail are a note (RC1011).
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { diag, type Diagnostic } from '../diagnostics/diagnostic.js';
import type { Policy } from '../config/policy.js';
import { applySeverities, severityDecision } from '../validate/severity.js';
import type { TokenCounts } from '../validate/token-count.js';
import { MAX_CACHE_FILE, readCacheFile, writeCacheFile, type CacheHeader } from './cache-file.js';
import { CACHE_PREFIX, makeCacheDir, openCacheDir } from './cache-dir.js';
import { compilerIdentity } from './compiler-identity.js';
import { decodeMemo, encodeMemo, type MemoRecord, type StoredMemo } from './build-memo.js';
import { decodeTokenCounts, encodeTokenCounts } from './token-store.js';
import { decodeLintMemo, encodeLintMemo } from './lint-store.js';
import type { LintMemo } from '../validate/lint-rules.js';
import { decodeGlobMemo, encodeGlobMemo } from './glob-store.js';
import { emptyGlobMemo, type GlobMemo } from '../resolve/glob-memo.js';
import { decodeProfileMemo, encodeProfileMemo } from './profile-store.js';
import { emptyProfileMemo, type ProfileMemo } from '../profiles/profile-memo.js';

export interface BuildCache {
  /** Whether this run reads and writes a cache at all. */
  readonly enabled: boolean;
  /** What this run has to say about the cache (RC1009–RC1011), in the order it happened. */
  readonly notes: Diagnostic[];
  /** The counts the last build kept (empty when none could be used); null without a cache. */
  knownTokens(): TokenCounts | null;
  keepTokens(counts: TokenCounts): void;
  /** The last build's record, when it was made under `policyDigest` (its report parsed when asked for; a damaged one is noted then). */
  memo(policyDigest: string): StoredMemo | null;
  keepMemo(policyDigest: string, record: MemoRecord): void;
  /** Remove the last build's record (a build whose files hold a detected secret keeps none). */
  forgetMemo(): void;
  /** The lint results the last build kept (empty when none could be used); null without a cache. */
  knownLint(): LintMemo | null;
  keepLint(memo: LintMemo): void;
  /** What the last build's globs matched (an empty memo when none could be used); null without a cache. */
  knownGlobs(): GlobMemo | null;
  keepGlobs(memo: GlobMemo): void;
  /** What the last build's agent profiles found (an empty memo when none could be used); null without a cache. */
  knownProfiles(): ProfileMemo | null;
  keepProfiles(memo: ProfileMemo): void;
}

const TOKENS = 'tokens';
const BUILD = 'build';
const LINT = 'lint';
const GLOBS = 'globs';
const PROFILES = 'profiles';

/** `writes`: false for the commands that only read a repository (lint, explain): they use the cache, only build keeps it. */
export async function openBuildCache(repoDir: string, enabled: boolean, writes = true): Promise<BuildCache> {
  const { dir, notes } = await openCacheDir(repoDir, enabled, writes);
  if (dir === null) {
    return { enabled: false, notes, knownTokens: () => null, keepTokens: () => undefined, memo: () => null, keepMemo: () => undefined,
      forgetMemo: () => undefined, knownLint: () => null, keepLint: () => undefined, knownGlobs: () => null, keepGlobs: () => undefined,
      knownProfiles: () => null, keepProfiles: () => undefined };
  }
  const header = (kind: string, policy: string | null): CacheHeader => ({ kind, compiler: compilerIdentity(), policy });
  const note = (name: string, detail: string): void => {
    notes.push(diag('RC1009', { file: `${CACHE_PREFIX}${name}`, message: `cache file ignored: ${detail}` }));
  };
  const read = <T>(name: string, policy: string | null, decode: (body: Buffer) => T | null): T | null => {
    const got = readCacheFile(dir, name, header(name, policy));
    if (!got.ok) {
      // A file of another rulec or another policy is stale, not wrong: an upgrade or a one-off
      // --severity makes one, and the next build replaces it. Only damage is worth a note.
      if (got.why === 'damaged') note(name, got.detail);
      return null;
    }
    const value = decode(got.body);
    if (value === null) note(name, 'its content is not what rulec writes');
    return value;
  };
  /** Remove cache file `name` (when this run writes the cache at all). */
  const remove = (name: string): void => {
    if (!writes) return;
    try {
      rmSync(join(dir, name), { force: true });
    } catch {
      // a stale file it cannot remove is refused by its header on the next read anyway (another fingerprint)
    }
  };
  let unwritable = false;
  const write = (name: string, policy: string | null, body: Buffer): void => {
    if (unwritable || !writes) return;
    // A file the next build would refuse to read is not written (nor is the old one kept).
    if (body.length > MAX_CACHE_FILE - 4096) return remove(name);
    const failed = makeCacheDir(dir) ?? writeCacheFile(dir, name, header(name, policy), body);
    if (failed === null) return;
    unwritable = true;
    notes.push(diag('RC1011', { file: CACHE_PREFIX.slice(0, -1), message: `cannot write the build cache in ${join('.rulec', 'cache')} (${failed})` }));
  };
  return {
    enabled: true,
    notes,
    knownTokens: () => read(TOKENS, null, decodeTokenCounts) ?? new Map(),
    keepTokens: (counts) => write(TOKENS, null, encodeTokenCounts(counts)),
    memo: (policyDigest) => {
      const stored = read(BUILD, policyDigest, decodeMemo);
      return stored && { head: stored.head, report: () => {
        const report = stored.report();
        if (report === null) note(BUILD, 'its content is not what rulec writes');
        return report;
      } };
    },
    keepMemo: (policyDigest, record) => write(BUILD, policyDigest, encodeMemo(record)),
    forgetMemo: () => remove(BUILD),
    knownLint: () => read(LINT, null, decodeLintMemo) ?? new Map(),
    keepLint: (memo) => write(LINT, null, encodeLintMemo(memo)),
    knownGlobs: () => read(GLOBS, null, decodeGlobMemo) ?? emptyGlobMemo(),
    keepGlobs: (memo) => write(GLOBS, null, encodeGlobMemo(memo)),
    knownProfiles: () => read(PROFILES, null, decodeProfileMemo) ?? emptyProfileMemo(),
    keepProfiles: (memo) => write(PROFILES, null, encodeProfileMemo(memo)),
  };
}

/** The cache's notes as the policy's `severity:` decides them (a note can be turned off like any code). */
export function cacheNotes(cache: BuildCache, policy: Policy): Diagnostic[] {
  return applySeverities(cache.notes, severityDecision(policy));
}
