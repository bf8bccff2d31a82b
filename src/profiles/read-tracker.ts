/**
 * Which files a profile run read, so a build can reuse what the run found
 * while those files are unchanged (profile-memo.ts).
 *
 * trackReads(view) returns a view that notes every read() in the innermost
 * open frame. Values remembered per view (perView, common.ts) are computed by
 * one run and then shared by every later one: their reads are kept as a group
 * with the value, and each run that uses the value — the one that computed it
 * and every later one — notes the group. So a run's reads are complete,
 * whichever run happened to compute a shared value first.
 */
import type { RepoView } from './types.js';

/** The files one shared value read, nested values' included. */
export interface ReadGroup {
  readonly files: ReadonlySet<string>;
}

/** What one run read: files directly, and the groups of the shared values it used. */
export interface Reads {
  readonly files: ReadonlySet<string>;
  readonly groups: ReadonlySet<ReadGroup>;
}

interface Frame {
  files: Set<string>;
  groups: Set<ReadGroup>;
}

class Tracker {
  private readonly frames: Frame[] = [];

  read(path: string): void {
    this.frames.at(-1)?.files.add(path);
  }

  /** `compute()`, and everything it read. */
  run<T>(compute: () => T): { value: T; reads: Reads } {
    const frame: Frame = { files: new Set(), groups: new Set() };
    this.frames.push(frame);
    try {
      return { value: compute(), reads: frame };
    } finally {
      this.frames.pop();
    }
  }

  /** `compute()` for a shared value: its reads as one group, which the enclosing run uses. */
  group<T>(compute: () => T): { value: T; group: ReadGroup } {
    const { value, reads } = this.run(compute);
    const files = new Set(reads.files);
    for (const g of reads.groups) for (const f of g.files) files.add(f);
    const group: ReadGroup = { files };
    this.use(group);
    return { value, group };
  }

  use(group: ReadGroup): void {
    this.frames.at(-1)?.groups.add(group);
  }
}

const trackers = new WeakMap<RepoView, Tracker>();

/** Where a read of the user's home directory is noted: NUL (never in a repository path), `~/`, the home-relative path. */
export const HOME_PREFIX = '\u0000~/';

/** Whether trackReads takes `view`: one that neither lists directories nor has home paths to list. */
export function tracksReads(view: RepoView): boolean {
  return view.listDir === undefined && (view.homePaths?.length ?? 0) === 0;
}

/**
 * `view`, with its reads noted (trackedRun, sharedValue): repository files by path, home files
 * under HOME_PREFIX. A view that lists directories (listDir: readdir order) or home paths is
 * refused (tracksReads): what a run learns from a listing is not a file's bytes.
 */
export function trackReads(view: RepoView): RepoView {
  if (!tracksReads(view)) throw new Error('trackReads: a view that lists directories or home paths is not tracked');
  const tracker = new Tracker();
  const tracked: RepoView = {
    paths: view.paths,
    rootDisplay: view.rootDisplay,
    homeDisplay: view.homeDisplay,
    homePaths: view.homePaths,
    read: (path) => {
      tracker.read(path);
      return view.read(path);
    },
    readHome: (rel) => {
      tracker.read(`${HOME_PREFIX}${rel}`);
      return view.readHome(rel);
    },
  };
  if (view.realPath) tracked.realPath = (path) => view.realPath?.(path);
  trackers.set(tracked, tracker);
  return tracked;
}

/** `compute()` on a view from trackReads, and what it read; on any other view, reads are not known (null). */
export function trackedRun<T>(view: RepoView, compute: () => T): { value: T; reads: Reads | null } {
  const tracker = trackers.get(view);
  return tracker ? tracker.run(compute) : { value: compute(), reads: null };
}

/**
 * A value shared between runs on one view: `compute()` the first time (its reads kept as a group),
 * and on every use the group is noted in the run that uses it. `remembered` is what an earlier
 * call returned (undefined the first time).
 */
export function sharedValue<V>(view: RepoView, remembered: { value: V; group: ReadGroup | null } | undefined,
  compute: () => V): { value: V; group: ReadGroup | null } {
  const tracker = trackers.get(view);
  if (remembered !== undefined) {
    if (tracker && remembered.group) tracker.use(remembered.group);
    return remembered;
  }
  return tracker ? tracker.group(compute) : { value: compute(), group: null };
}
