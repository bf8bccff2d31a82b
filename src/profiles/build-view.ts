/**
 * The profile evaluation a build records (pure): every enabled profile run over
 * a snapshot of the repository's instruction files. The view has no home
 * directory — personal files never shape a bundle — and prints the root as
 * `/repo`, so the bytes and tokens recorded are the same on every machine.
 */
import type { StageResult } from '../types.js';
import { evaluateProfiles, type ProfileFits } from './evaluate.js';
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
}

export const BUILD_ROOT_DISPLAY = '/repo';

export function evaluateProfileJob(job: ProfileJob): StageResult<ProfileFits> {
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
  return evaluateProfiles(view, job.variants, job.enabled, job.options, (id) => job.canonical[id] ?? [], new Set(job.imported ?? []));
}
