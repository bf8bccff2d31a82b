/**
 * Profiles over a whole build, for `build`/`lint` and the manifest.
 *
 * 1. Split each variant's directories into session classes
 *    (session-classes.ts): directories where every agent starts the same
 *    session. Usually one or two per variant, so the cost stays linear in
 *    variants, yet a split inside a variant (a Codex fallback file in one
 *    directory, a root-level import that is "external" below the root) is
 *    seen and counted at the paths where it happens.
 * 2. Run every enabled profile once per class, in its shortest directory,
 *    with its policy options — or, given an earlier evaluation's memo
 *    (evaluateRemembering), take the run's outcome from it while every file
 *    the run read is unchanged (profile-memo.ts).
 * 3. The variant's row is the worst class: most bytes and tokens, fits only
 *    if every class fits, the files dropped anywhere.
 * 4. Findings (findings.ts), each counted once per class with the class's
 *    paths, are merged over the build — one diagnostic per (profile, code,
 *    file), at the file, line 1 col 1. RC5505 is an unknown profile name.
 */
import type { StageResult } from '../types.js';
import { diag, type Diagnostic } from '../diagnostics/diagnostic.js';
import { compareCodeUnits } from '../util/compare.js';
import { findingsOf, fmt, type Finding } from './findings.js';
import { profileByName } from './registry.js';
import { SessionClasses } from './session-classes.js';
import type { AgentProfile, ProfileResult, RepoView } from './types.js';
import { SKIP_BUDGET } from './types.js';
import { tracksReads } from './read-tracker.js';
import { emptyProfileMemo, ProfileRuns, runKey, type ProfileFit, type ProfileMemo, type ProfileOutcome } from './profile-memo.js';

export type { ProfileFit } from './profile-memo.js';

/** Variant id → enabled profile name → how that agent fares there: what the manifest records. */
export type ProfileFits = Record<string, Record<string, ProfileFit>>;

function message(f: Finding): string {
  const at = `at ${fmt(f.paths)} path${f.paths === 1 ? '' : 's'}`;
  const a = f.profile.agent;
  switch (f.code) {
    case 'RC5501': return `${a} drops ${f.file} ${at}: ${f.detail}`;
    case 'RC5502': return `${a} truncates ${f.file} ${at} ${f.detail}`;
    case 'RC5503': return `${a} does not load ${f.file} ${at} where rulec does: ${f.detail}`;
    case 'RC5506': {
      const [times, routes] = f.detail.split('|');
      return `${a} sends ${f.file} ${times} ${at}: ${routes}`;
    }
    case 'RC5508': return `${a} does not load ${f.file} at start-up ${at}: ${f.detail}`;
    case 'RC5507': return `${a} loads ${f.file} ${at} only when the user approves it: ${f.detail}`;
    default: return `${a} loads ${f.file} ${at} where rulec does not (${f.detail})`;
  }
}

function aggregate(findings: readonly Finding[]): Diagnostic[] {
  const merged = new Map<string, Finding>();
  for (const f of findings) {
    const key = `${f.code}\u0000${f.profile.name}\u0000${f.file}`;
    const prev = merged.get(key);
    if (prev) prev.paths += f.paths;
    else merged.set(key, { ...f });
  }
  return [...merged.values()].map((f) => diag(f.code, { file: f.file, message: message(f) }));
}

/** Step 3: the worst of a variant's classes. */
function worst(rows: readonly ProfileFit[]): ProfileFit {
  const dropped = [...new Set(rows.flatMap((r) => r.dropped))].sort(compareCodeUnits);
  return {
    bytes: Math.max(0, ...rows.map((r) => r.bytes)),
    tokens: Math.max(0, ...rows.map((r) => r.tokens)),
    fits: rows.every((r) => r.fits),
    dropped,
  };
}

/** File names the profiles' options make agents read (Codex fallbacks, Gemini context names). */
function optionNames(options: Record<string, Record<string, unknown>>): string[] {
  const out: string[] = [];
  for (const o of Object.values(options)) {
    for (const k of ['fallback_filenames', 'context_file_names']) {
      const v = o?.[k];
      if (typeof v === 'string') out.push(v);
      else if (Array.isArray(v)) out.push(...v.filter((x): x is string => typeof x === 'string'));
    }
  }
  return out;
}

/** What each agent fares like per variant, and, when asked to remember, what this evaluation found (profile-memo.ts; else null). */
export interface ProfileEvaluation {
  fits: ProfileFits;
  memo: ProfileMemo | null;
}

export function evaluateProfiles(
  view: RepoView,
  variants: readonly { id: string; dirs: readonly string[]; pathCount: number }[],
  enabled: readonly string[],
  options: Record<string, Record<string, unknown>>,
  canonicalSources: (variantId: string) => readonly string[],
  /** Canonical sources that some file imports (where cwd lies relative to them matters to Claude Code). */
  imported: ReadonlySet<string> = new Set(),
): StageResult<ProfileFits> {
  const r = evaluateRemembering([view, variants, enabled, options, canonicalSources, imported], null);
  return { value: r.value.fits, diagnostics: r.diagnostics };
}

/** evaluateProfiles() on the same arguments, reusing what an earlier evaluation found and returning what this one found. */
export function evaluateRemembering(
  args: Parameters<typeof evaluateProfiles>,
  /**
   * What an earlier evaluation found (profile-memo.ts), and the basis of this view (memoBasis: its
   * listing and links, as the caller built it): outcomes are reused where their reads are unchanged.
   */
  remember: { known: ProfileMemo; basis: string } | null,
): StageResult<ProfileEvaluation> {
  const [view, variants, enabled, options, canonicalSources, imported = new Set<string>()] = args;
  const diagnostics: Diagnostic[] = [];
  const profiles: AgentProfile[] = [];
  for (const name of enabled) {
    const p = profileByName(name);
    if (p) profiles.push(p);
    else diagnostics.push(diag('RC5505', { file: '', message: `unknown agent profile '${name}' in profiles.enabled` }));
  }
  // Only a view whose every input is a file's bytes can be remembered (a build's always is).
  const runs = remember && tracksReads(view) ? new ProfileRuns(view, remember.basis, remember.known) : null;
  const seen = runs?.view ?? view;
  const perVariant: ProfileFits = {};
  const findings: Finding[] = [];
  const sessions = new SessionClasses(seen, optionNames(options), imported);
  for (const v of variants) {
    const canonicalList = canonicalSources(v.id);
    const canonical = new Set(canonicalList);
    const classes = sessions.classesOf(v.dirs, canonicalList);
    const row: Record<string, ProfileFit> = {};
    for (const p of profiles) {
      const fits: ProfileFit[] = [];
      const opts = options[p.name] ?? {};
      for (const c of classes) {
        const compute = (): ProfileOutcome | null => {
          let result: ProfileResult;
          try {
            result = p.load(seen, c.dir, opts);
          } catch (e) {
            // A profile bug must not take the build down: report it and go on.
            diagnostics.push(diag('RC9001', { file: '', message: `profile ${p.name} failed at ${c.dir === '' ? 'the root' : c.dir}: ${(e as Error).message}` }));
            return null;
          }
          const dropped = result.files.filter((f) => f.cut || f.skipped?.startsWith(SKIP_BUDGET)).map((f) => f.path);
          return { fit: { bytes: result.bytes, tokens: result.tokens, fits: !result.truncated, dropped },
            findings: findingsOf(p, result, canonical, c.pathCount, seen).map(({ profile: _p, ...f }) => f) };
        };
        const outcome = runs ? runs.run(runKey(p, opts, c.dir, c.pathCount, canonicalList), compute) : compute();
        if (outcome === null) continue;
        fits.push(outcome.fit);
        for (const f of outcome.findings) findings.push({ ...f, profile: p });
      }
      if (fits.length > 0) row[p.name] = worst(fits);
    }
    perVariant[v.id] = row;
  }
  const memo = runs?.result() ?? (remember ? emptyProfileMemo(remember.basis) : null);
  return { value: { fits: perVariant, memo }, diagnostics: [...diagnostics, ...aggregate(findings)] };
}
