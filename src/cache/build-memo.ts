/**
 * The whole-build memo: a rebuild whose inputs are exactly those of the last
 * build prints that build's report instead of compiling again (pure: data in,
 * data out; build-cache.ts reads and writes it).
 *
 * 1. Everything after discovery is a function of what it found, of the
 *    answers import following got (discover/import-reads.ts), of the policy,
 *    the options, the date (override expiry) and the compiler (compile.ts).
 *    So the fingerprint is the sha256 of exactly those: each file discovery
 *    read (instruction and managed files) by the sha256 of its bytes, each
 *    import read by its answer and the index facts of its path (whether it
 *    is dirty), the repository's path listing, the git facts (commit,
 *    remote, dirty files: the manifest's `source`), what was left out and
 *    why, and discovery's diagnostics. A byte changed anywhere is another
 *    fingerprint. Checking it needs discovery and the import reads again,
 *    but no parsing: the same bytes parse the same.
 * 2. The record keeps the fingerprint, the bundle's id, digest and stamp
 *    (bundle-stamp.ts), and the build's report as printed (without this run's own facts: where the
 *    repository and the bundle were shown, --check's outcome).
 * 3. A build whose files hold a detected secret is not recorded: masking its
 *    report needs the secret values, which never go to disk.
 * 4. The record is stored as two lines of JSON: everything but the report,
 *    then the report. Deciding whether to replay reads the first line alone;
 *    the report (9 MB on the bench, most of it the conflict events) is parsed
 *    only for a replay, so an edited build neither parses it nor keeps it.
 */
import type { Policy } from '../config/policy.js';
import { sortDiagnostics, type Diagnostic } from '../diagnostics/diagnostic.js';
import type { Discovered } from '../discover/discover.js';
import type { ImportRead } from '../discover/import-reads.js';
import type { BuildReport, FrameLines } from '../report/reporters/types.js';
import type { StageResult } from '../types.js';
import { canonicalJson } from '../util/canonical-json.js';
import { listingDigest, sha256Hex } from '../util/hash.js';
import type { BundleStamp } from './bundle-stamp.js';
import { jsonOf } from './cache-file.js';

/** Bump when what the fingerprint covers, how it is hashed or the record's shape changes. */
const MEMO_VERSION = 3;

export interface MemoKey {
  compiler: string;
  /** The effective policy (severity overrides merged). */
  policy: Policy;
  revision: string;
  includeLocal: boolean;
  /** The UTC date the build judges override expiry by. */
  today: string;
  found: StageResult<Discovered>;
}

export interface MemoRecord {
  fingerprint: string;
  bundle_id: string;
  digest: string;
  /** The bundle's files as written (bundle-stamp.ts): a replay checks they are still so. */
  stamp: BundleStamp;
  /** The import reads the build made: a replay asks them again. */
  reads: ImportRead[];
  /** The report as the build printed it; `repo`, `policy_file`, `written` and `check` are this run's. */
  report: BuildReport;
}

/**
 * The fingerprint of a build from `k`, as a function of its import reads (ahead of a build: those of
 * the record, asked again; after it: the build's own). Everything else — every file's sha256 and the
 * listing, 40-100 ms on the bench — is hashed once, when the function is made.
 */
export function buildFingerprint(k: MemoKey): (reads: readonly ImportRead[]) => string {
  const d = k.found.value;
  const index = (rel: string): [string | null, boolean] => [d.head?.blobs.get(rel) ?? null, d.head?.staged.has(rel) ?? false];
  const found = sha256Hex(canonicalJson({
    memo: MEMO_VERSION, compiler: k.compiler, policy: k.policy, revision: k.revision, includeLocal: k.includeLocal, today: k.today,
    roots: { repo: d.rootReal, managed: d.managedReal },
    files: d.files.map((f) => [f.id, f.rel, f.root, f.format, f.layer, f.scope, f.tracked, f.linkTarget ?? null, sha256Hex(f.bytes)]),
    // 100,000 paths: hashed as one listing rather than canonicalised one by one.
    paths: listingDigest(d.paths),
    git: d.git, localExcluded: d.localExcluded, ignored: d.ignored, exclusions: d.exclusions, dirty: d.dirty,
    diagnostics: k.found.diagnostics,
  }));
  return (reads) => sha256Hex(canonicalJson({
    found,
    // An import's dirtiness is judged by the index facts of the file it resolved to.
    reads: reads.map((r) => [r.root, r.rel, r.id, r.outcome, r.real, ...(r.root === 'repo' && r.real !== null ? index(r.real) : [])]),
  }));
}

/** A record as read: everything but the report, and the report, parsed when asked for (null: not a report). */
export interface StoredMemo {
  head: Omit<MemoRecord, 'report'>;
  report(): BuildReport | null;
}

/** The record's body bytes: two lines of JSON, the head and the report (stored, never hashed, so not canonical). */
export function encodeMemo(record: MemoRecord): Buffer {
  const { report, ...head } = record;
  // JSON.stringify escapes every newline inside a string: each part is one line.
  return Buffer.from(`${JSON.stringify(head)}\n${JSON.stringify(report)}`, 'utf8');
}

/**
 * The record in `body`, or null when its head is not one (the file is then ignored as damaged);
 * its report is checked when it is parsed.
 */
export function decodeMemo(body: Buffer): StoredMemo | null {
  const eol = body.indexOf(0x0a);
  if (eol < 0) return null;
  const value = jsonOf(body.subarray(0, eol));
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const r = value as Record<string, unknown>;
  const ok = Object.keys(r).length === 5 && typeof r.fingerprint === 'string' && typeof r.bundle_id === 'string' && /^b-[0-9a-f]{16}$/.test(r.bundle_id)
    && typeof r.digest === 'string' && /^sha256:[0-9a-f]{64}$/.test(r.digest) && Array.isArray(r.stamp) && Array.isArray(r.reads)
    && r.reads.every((x) => typeof x === 'object' && x !== null && ['repo', 'managed'].includes((x as ImportRead).root)
      && typeof (x as ImportRead).rel === 'string' && typeof (x as ImportRead).id === 'string' && typeof (x as ImportRead).outcome === 'string'
      && (typeof (x as ImportRead).real === 'string' || (x as ImportRead).real === null))
    && r.stamp.every((e) => Array.isArray(e) && e.length === 3 && typeof e[0] === 'string' && typeof e[1] === 'number' && typeof e[2] === 'number');
  if (!ok) return null;
  const head = value as Omit<MemoRecord, 'report'>;
  return { head, report: () => reportOf(body.subarray(eol + 1), head.bundle_id) };
}

/** The recorded report of the bundle `bundleId`, or null when the bytes are not one. */
function reportOf(bytes: Buffer, bundleId: string): BuildReport | null {
  const report = jsonOf(bytes) as Record<string, unknown> | null | undefined;
  if (typeof report !== 'object' || report === null || Array.isArray(report) || report.command !== 'build' || report.bundle_id !== bundleId
    || !Array.isArray(report.diagnostics) || !Array.isArray(report.conflicts)) return null;
  // JSON gives plain objects; the report's frame lines are null-prototype maps (file and line
  // keys are data), and reporters treat them as such.
  const lines = Object.create(null) as FrameLines;
  for (const [file, perFile] of Object.entries((report.lines ?? {}) as Record<string, Record<string, string>>)) {
    lines[file] = Object.assign(Object.create(null) as Record<string, string>, perFile);
  }
  return { ...(report as unknown as BuildReport), lines };
}

/** The recorded report as this run prints it: its own places and outcome, and its own cache notes. */
export function replayReport(record: MemoRecord, run: Pick<BuildReport, 'repo' | 'policy_file' | 'written' | 'check'>, notes: readonly Diagnostic[]): BuildReport {
  return { ...record.report, ...run, diagnostics: withNotes(record.report.diagnostics, notes) };
}

/** `diagnostics` (sorted) with this run's cache notes sorted in. */
export function withNotes(diagnostics: readonly Diagnostic[], notes: readonly Diagnostic[]): Diagnostic[] {
  return notes.length === 0 ? [...diagnostics] : sortDiagnostics([...diagnostics, ...notes]);
}
