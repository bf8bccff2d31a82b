/**
 * What each glob matched in an earlier build, remembered by position in that
 * build's sorted path listing (the build cache keeps it: src/cache/glob-store.ts).
 *
 * 1. A memo names its listing by sha256 (listingDigest, util/hash.ts: each path followed by NUL,
 *    which no path holds). A build whose listing has another digest uses none of
 *    it: a path added, removed or renamed anywhere moves every index.
 * 2. Otherwise a glob found in the memo takes its paths from there instead of
 *    being matched again; its indices must ascend and lie inside the listing, or
 *    the whole memo is set aside (it was not made by a build of this listing).
 * 3. The build's own memo holds every glob it matched (a glob that cannot be
 *    parsed is left out: it is reported again), until MAX_REMEMBERED_MATCHES
 *    paths in all: a repository whose globs each match most of a large tree is
 *    matched again rather than written to disk at that size.
 * 4. Likewise the rules that load together (co-attachment.ts), named by the
 *    sha256 of every attachment's globs in order: on the same listing, the same
 *    globs match the same paths, so the same rules meet on the same paths. Kept
 *    up to MAX_REMEMBERED_DIRS directories in all; used only when every set
 *    names attachments that exist.
 *
 * Matching is a function of the listing and the glob alone (glob-index.ts), so
 * a remembered match is the match. Plain data in and out; the I/O is the cache's.
 */
import { listingDigest, sha256Hex } from '../util/hash.js';
import type { CoAttachment } from './co-attachment.js';

export interface GlobMemo {
  /** sha256 of the listing the indices point into: each of its paths followed by NUL. */
  listing: string;
  /** Glob → indices of the paths it matches, ascending. */
  matches: ReadonlyMap<string, readonly number[]>;
  /** The attachments that load together, for the attachments' globs whose digest is `key` (step 4). */
  together: { key: string; groups: readonly CoAttachment[] } | null;
}

/** The most path indices one memo holds (about 8 MiB of cache file at the bench's density). */
export const MAX_REMEMBERED_MATCHES = 2_000_000;
/** The most directories its co-attached sets hold (the bench's: 41,828 in 2,988 sets, 2.3 MB). */
export const MAX_REMEMBERED_DIRS = 1_000_000;

/** A memo that remembers nothing (of `listing`: '' names none). */
export function emptyGlobMemo(listing = ''): GlobMemo {
  return { listing, matches: new Map(), together: null };
}

/** The remembered matches of one build: read from an earlier memo, recorded for the next. */
export class GlobMatches {
  private readonly listing: string;
  private readonly known: ReadonlyMap<string, readonly number[]>;
  private readonly kept = new Map<string, readonly number[]>();
  private keptCount = 0;
  private readonly knownTogether: GlobMemo['together'];
  private keptTogether: GlobMemo['together'] = null;
  private lastKey: { of: readonly (readonly string[])[]; key: string } | null = null;

  /** `paths`: the listing matched against, sorted (discovery's order); `cap`: the most indices remembered. */
  constructor(private readonly paths: readonly string[], earlier: GlobMemo | null, private readonly cap = MAX_REMEMBERED_MATCHES) {
    this.listing = listingDigest(paths);
    // A memo of another listing, or whose indices do not fit this one, is set aside whole.
    const fits = earlier !== null && earlier.listing === this.listing && [...earlier.matches.values()].every((m) => this.inListing(m));
    this.known = fits ? earlier.matches : new Map();
    this.knownTogether = fits ? earlier.together : null;
  }

  /**
   * The attachments that load together, as an earlier build of this listing found them for
   * attachments with these globs (`globsOf`, one list per attachment, in order); undefined when
   * it did not, or when a set it names does not fit them. Recalled or not, pass the sets to
   * rememberTogether().
   */
  recallTogether(globsOf: readonly (readonly string[])[]): CoAttachment[] | undefined {
    const known = this.knownTogether;
    if (known === null || known.key !== this.togetherKey(globsOf)) return undefined;
    const fits = known.groups.every((g) => g.attachments.length >= 2
      && g.attachments.every((a, i) => Number.isSafeInteger(a) && a >= (i === 0 ? 0 : (g.attachments[i - 1] as number) + 1) && a < globsOf.length));
    return fits ? [...known.groups] : undefined;
  }

  rememberTogether(globsOf: readonly (readonly string[])[], groups: readonly CoAttachment[]): void {
    if (groups.reduce((n, g) => n + g.dirs.length, 0) <= MAX_REMEMBERED_DIRS) this.keptTogether = { key: this.togetherKey(globsOf), groups };
  }

  /** What names the co-attached sets of attachments with these globs (worked out once per list). */
  private togetherKey(globsOf: readonly (readonly string[])[]): string {
    if (this.lastKey?.of !== globsOf) this.lastKey = { of: globsOf, key: sha256Hex(JSON.stringify(globsOf)) };
    return this.lastKey.key;
  }

  /** The paths `glob` matched in an earlier build of this listing (recorded for the next), or undefined. */
  recall(glob: string): string[] | undefined {
    const indices = this.known.get(glob);
    if (indices === undefined) return undefined;
    this.keep(glob, indices);
    return indices.map((i) => this.paths[i] as string);
  }

  /** Record what `glob` matched now (sorted paths of the listing, and where each stands in it). */
  record(glob: string, matches: readonly string[], positionOf: (path: string) => number | undefined): void {
    if (this.room(glob, matches.length)) this.keep(glob, matches.map((p) => positionOf(p) as number));
  }

  /** Every glob this build matched or recalled, by its paths' indices. */
  memo(): GlobMemo {
    return { listing: this.listing, matches: new Map(this.kept), together: this.keptTogether };
  }

  private room(glob: string, n: number): boolean {
    return !this.kept.has(glob) && this.keptCount + n <= this.cap;
  }

  private keep(glob: string, indices: readonly number[]): void {
    if (!this.room(glob, indices.length)) return;
    this.kept.set(glob, indices);
    this.keptCount += indices.length;
  }

  private inListing(indices: readonly number[]): boolean {
    let last = -1;
    for (const i of indices) {
      if (!Number.isSafeInteger(i) || i <= last || i >= this.paths.length) return false;
      last = i;
    }
    return true;
  }
}
