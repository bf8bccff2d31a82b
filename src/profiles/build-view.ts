/**
 * The profile evaluation a build records (pure): every enabled profile run over
 * a snapshot of the repository's instruction files. The view has no home
 * directory — personal files never shape a bundle — and prints the root as
 * `/repo`, so the bytes and tokens recorded are the same on every machine.
 */
import type { StageResult } from '../types.js';
import { compareCodeUnits } from '../util/compare.js';
import { evaluateRemembering, type ProfileEvaluation } from './evaluate.js';
import { memoBasis, type ProfileMemo } from './profile-memo.js';
import type { RepoView } from './types.js';

export interface ProfileJob {
  /** Repo-relative path → raw bytes, for every instruction file and import. */
  files: [string, Uint8Array][];
  /** Repo-relative path of a symbolic link → the file it finally leads to. Optional for older callers. */
  links?: [string, string][];
  paths: string[];
  variants: { id: string; dirs: string[]; pathCount: number }[];
  enabled: string[];
  options: Record<string, Record<string, unknown>>;
  /** Variant id → its canonical source ids. */
  canonical: Record<string, string[]>;
  /** Canonical source ids that some source imports. Optional for older callers. */
  imported?: string[];
  /** What an earlier build's profiles found (profile-memo.ts); absent or null: nothing is remembered or returned. */
  known?: ProfileMemo | null;
}

export const BUILD_ROOT_DISPLAY = '/repo';

export function evaluateProfileJob(job: ProfileJob): StageResult<ProfileEvaluation> {
  const bytes = new Map(job.files);
  const links = new Map(job.links ?? []);
  const view: RepoView = {
    paths: job.paths,
    read: (p) => bytes.get(p),
    realPath: (p) => links.get(p) ?? p,
    readHome: () => undefined,
    rootDisplay: BUILD_ROOT_DISPLAY,
    homeDisplay: '/home',
    homePaths: [],
  };
  // The view is the listing, the links and the files' bytes: the listing and the links are the basis
  // every remembered outcome shares, the bytes each outcome's reads check.
  const remember = job.known ? { known: job.known, basis: memoBasis(job.paths, [...links].sort((a, b) => compareCodeUnits(a[0], b[0]))) } : null;
  return evaluateRemembering([view, job.variants, job.enabled, job.options, (id) => job.canonical[id] ?? [], new Set(job.imported ?? [])], remember);
}
