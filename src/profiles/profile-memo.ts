/**
 * What the agent profiles found in a build, remembered for the next one (the
 * build cache's `profiles` file: cache/profile-store.ts).
 *
 * A profile is a pure function of the repository view, the session's
 * directory and its options (types.ts); a build's view is the sorted path
 * listing, the symbolic links, and the bytes of each file read. So what one
 * profile found in one session class — its fit and its findings — holds again
 * when:
 * 1. the listing and the links are the same (the memo's `basis`),
 * 2. the run's key is the same: the profile and its version, its options, the
 *    class's directory and path count, the variant's canonical sources (what
 *    findings compare against), and
 * 3. every file the run read (read-tracker.ts) has the same sha256, or is
 *    still absent.
 * Anything else runs the profile again. The memo a build returns holds the
 * outcomes it used, and nothing else. Each outcome also names the texts its
 * run counted (by digest): a reused outcome counts nothing, and its counts are
 * put in the build's token ledger instead (token-count.ts keepCounted), so the
 * cache's `tokens` file keeps them for the next build that runs it again.
 */
import { listingDigest, sha256Hex } from '../util/hash.js';
import { canonicalJson } from '../util/canonical-json.js';
import { compilerVersion } from '../config/package-files.js';
import { captureCounts, keepCounted } from '../validate/token-count.js';
import { HOME_PREFIX, trackedRun, trackReads, type ReadGroup, type Reads } from './read-tracker.js';
import { PROFILE_ENCODING } from './common.js';
import type { RepoView } from './types.js';

export interface ProfileFit { bytes: number; tokens: number; fits: boolean; dropped: string[] }

/** A finding of one run (findings.ts), without its profile (the run's key names it). */
export interface MemoFinding { code: string; file: string; paths: number; detail: string }

/** One profile's outcome in one session class. */
export interface ProfileOutcome {
  fit: ProfileFit;
  findings: MemoFinding[];
}

export interface ProfileMemoEntry extends ProfileOutcome {
  /** Indices into the memo's `files`: what the run read itself. */
  files: number[];
  /** Indices into the memo's `groups`: the shared values it used. */
  groups: number[];
  /** Indices into the memo's `counts`: the texts its run counted. */
  counts: number[];
}

export interface ProfileMemo {
  /** sha256 of the path listing and the symbolic links the outcomes were found with. */
  basis: string;
  /** Every file some outcome depends on: its path and the sha256 of its bytes (null: absent). */
  files: [string, string | null][];
  /** The files each shared value read (read-tracker.ts), as indices into `files`. */
  groups: number[][];
  /** The sha256 of each text some run counted (in PROFILE_ENCODING, long enough to be kept by digest). */
  counts: string[];
  /** Run key (runKey) → outcome, in the order the build used them. */
  entries: [string, ProfileMemoEntry][];
}

/** Bumped when what a run's outcome depends on changes in a way the key does not show. */
const MEMO_FORMAT = 1;

export function emptyProfileMemo(basis = ''): ProfileMemo {
  return { basis, files: [], groups: [], counts: [], entries: [] };
}

/** The basis of a view: its listing (listingDigest) and its links (sorted by the caller). */
export function memoBasis(paths: readonly string[], links: readonly (readonly [string, string])[]): string {
  return sha256Hex(canonicalJson([MEMO_FORMAT, listingDigest(paths), links]));
}

/** The key of one profile's run in one session class, under this rulec (its profiles' code is part of what a run is). */
export function runKey(profile: { name: string; agentVersion: string }, options: Record<string, unknown>, dir: string, pathCount: number,
  canonical: readonly string[]): string {
  return sha256Hex(canonicalJson([MEMO_FORMAT, compilerVersion(), profile.name, profile.agentVersion, options, dir, pathCount, canonical]));
}

/**
 * The runs of one evaluation: each outcome recalled from `known` when its reads are unchanged,
 * else computed on `view` (the tracked view this gives) and remembered.
 */
export class ProfileRuns {
  /** The view the profiles must run on: reads through it are noted. */
  readonly view: RepoView;
  private readonly digests = new Map<string, string | null>();
  private readonly known: Map<string, ProfileMemoEntry>;
  private readonly fileOk = new Map<number, boolean>();
  private readonly groupOk = new Map<number, boolean>();
  private readonly out: ProfileMemo;
  private readonly fileIds = new Map<string, number>();
  private readonly groupIds = new Map<ReadGroup | number, number>();
  /** Output group index by its files (indices joined): groups that read the same files are stored once. */
  private readonly groupsByFiles = new Map<string, number>();
  private readonly countIds = new Map<string, number>();

  constructor(private readonly base: RepoView, basis: string, private readonly memo: ProfileMemo) {
    this.view = trackReads(base);
    this.known = new Map(memo.basis === basis ? memo.entries : []);
    this.out = emptyProfileMemo(basis);
  }

  /** The outcome of run `key`: recalled, or `compute()`d (null — the run failed — is not remembered). */
  run(key: string, compute: () => ProfileOutcome | null): ProfileOutcome | null {
    const known = this.known.get(key);
    if (known && known.files.every((i) => this.fileHolds(i)) && known.groups.every((g) => this.groupHolds(g))) {
      const counted = known.counts.flatMap((i) => this.memo.counts[i] ?? []);
      keepCounted(PROFILE_ENCODING, counted);
      this.keep(key, known, known.files.map((i) => this.fileId(this.pathOf(i))),
        known.groups.map((g) => this.groupId(g, () => (this.memo.groups[g] as number[]).map((i) => this.pathOf(i)))), counted);
      return known;
    }
    // `reads` is never null here: the view is tracked (constructor).
    const { value: { value, reads }, digests } = captureCounts(PROFILE_ENCODING, () => trackedRun(this.view, compute));
    if (value !== null && reads !== null) this.keep(key, value, ...this.idsOf(reads), digests);
    return value;
  }

  /** The outcomes this evaluation used, with what each read. */
  result(): ProfileMemo {
    return this.out;
  }

  private keep(key: string, outcome: ProfileOutcome, files: number[], groups: number[], counted: readonly string[]): void {
    // Two groups with the same files are one group of the output: each index once, ascending.
    const ascending = (ids: number[]): number[] => [...new Set(ids)].sort((a, b) => a - b);
    const counts = counted.map((d) => {
      let id = this.countIds.get(d);
      if (id === undefined) {
        this.countIds.set(d, (id = this.out.counts.length));
        this.out.counts.push(d);
      }
      return id;
    });
    this.out.entries.push([key, { fit: outcome.fit, findings: outcome.findings, files: ascending(files), groups: ascending(groups), counts: ascending(counts) }]);
  }

  private idsOf(reads: Reads): [number[], number[]] {
    return [[...reads.files].map((p) => this.fileId(p)), [...reads.groups].map((g) => this.groupId(g, () => [...g.files]))];
  }

  /** The path of the known memo's file `i` (checked to exist by fileHolds first). */
  private pathOf(i: number): string {
    return (this.memo.files[i] as [string, string | null])[0];
  }

  private digest(path: string): string | null {
    let d = this.digests.get(path);
    if (d === undefined) {
      const bytes = path.startsWith(HOME_PREFIX) ? this.base.readHome(path.slice(HOME_PREFIX.length)) : this.base.read(path);
      this.digests.set(path, (d = bytes === undefined ? null : sha256Hex(bytes)));
    }
    return d;
  }

  private fileHolds(i: number): boolean {
    let ok = this.fileOk.get(i);
    if (ok === undefined) {
      const f = this.memo.files[i];
      this.fileOk.set(i, (ok = f !== undefined && this.digest(f[0]) === f[1]));
    }
    return ok;
  }

  private groupHolds(g: number): boolean {
    let ok = this.groupOk.get(g);
    if (ok === undefined) this.groupOk.set(g, (ok = this.memo.groups[g]?.every((i) => this.fileHolds(i)) ?? false));
    return ok;
  }

  private fileId(path: string): number {
    let id = this.fileIds.get(path);
    if (id === undefined) {
      this.fileIds.set(path, (id = this.out.files.length));
      this.out.files.push([path, this.digest(path)]);
    }
    return id;
  }

  /** The output's index of a group: this build's (a ReadGroup) or the known memo's (its index). */
  private groupId(group: ReadGroup | number, files: () => string[]): number {
    let id = this.groupIds.get(group);
    if (id === undefined) {
      const indices = files().map((p) => this.fileId(p)).sort((a, b) => a - b);
      const key = indices.join(',');
      id = this.groupsByFiles.get(key);
      if (id === undefined) {
        this.groupsByFiles.set(key, (id = this.out.groups.length));
        this.out.groups.push(indices);
      }
      this.groupIds.set(group, id);
    }
    return id;
  }
}
