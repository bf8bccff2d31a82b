/** What the worker needs to run the enabled agent profiles over a build (build-view.ts runs it). */
import type { SourceFile } from '../types.js';
import type { Policy } from '../config/policy.js';
import type { ResolutionPlan } from '../resolve/resolve.js';
import { expandImports, type ImportContext } from '../resolve/expand-imports.js';
import type { ProfileJob } from './build-view.js';
import type { ProfileMemo } from './profile-memo.js';
import { DEFAULT_ENABLED_PROFILES } from './registry.js';

export function profileJob(files: readonly SourceFile[], paths: readonly string[], res: ResolutionPlan, policy: Policy, imports: ImportContext,
  known: ProfileMemo | null = null): ProfileJob {
  const { enabled, ...options } = policy.profiles ?? {};
  const repo = files.filter((f) => f.root === 'repo');
  return {
    files: repo.map((f) => [f.rel, f.bytes]),
    links: repo.filter((f) => f.linkTarget !== undefined).map((f) => [f.rel, f.linkTarget as string]),
    paths: [...paths],
    variants: res.variants.map((v) => ({ id: v.id, dirs: v.dirs, pathCount: v.pathCount })),
    enabled: [...(enabled ?? DEFAULT_ENABLED_PROFILES)],
    options: options as Record<string, Record<string, unknown>>,
    canonical: Object.fromEntries(res.variants.map((v) => [v.id, v.sources.map((r) => r.id)])),
    known,
    // Every import target, also where a chain already holds the file (`@AGENTS.md` beside AGENTS.md).
    imported: [...new Set([...res.sources.keys()].flatMap((id) => expandImports(id, imports).value.map((r) => r.id)))],
  };
}
