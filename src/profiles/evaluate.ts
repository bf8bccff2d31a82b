/**
 * Profiles over a whole build, for `build`/`lint` and the manifest.
 *
 * 1. For each variant pick one representative directory: the shortest of its
 *    dirs (ties: code-unit order). All dirs of a variant share the canonical
 *    chain, so Codex/Claude can differ inside one variant only where their
 *    selection differs from the canonical model (e.g. a Codex fallback file
 *    in one dir); one load per variant and profile keeps a 100k-path build
 *    linear in variants, at the cost of missing such rare splits.
 * 2. Run every enabled profile there with its policy options and record
 *    bytes, tokens, whether the text fits (nothing cut or dropped) and which
 *    files were cut or dropped.
 * 3. Aggregate findings over variants — one diagnostic per (profile, file,
 *    finding), counting the paths of every variant where it happens (sum of
 *    pathCount) — placed at the file, line 1 col 1:
 *    RC5501 dropped by a budget, RC5502 cut by a budget, RC5503 a canonical
 *    source the agent skips, RC5504 a project file the agent loads that the
 *    canonical model does not, RC5505 an unknown profile name.
 */
import { diag, type Diagnostic } from '../diagnostics/diagnostic.js';
import { compareCodeUnits } from '../util/compare.js';
import { profileByName } from './registry.js';
import type { AgentProfile, ProfileFile, ProfileResult, RepoView } from './types.js';
import { SKIP_BUDGET, SKIP_LAZY } from './types.js';

export interface ProfileFit { bytes: number; tokens: number; fits: boolean; dropped: string[] }

export interface ProfileEvaluation {
  perVariant: Record<string, Record<string, ProfileFit>>;
  diagnostics: Diagnostic[];
}

interface Finding { code: string; file: string; profile: AgentProfile; paths: number; detail: string }

/** 31904 → "31,904" without Intl, so messages never depend on the host's locale data. */
const fmt = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

export function representativeDir(dirs: readonly string[]): string {
  let best: string | undefined;
  for (const d of dirs) {
    if (best === undefined || d.length < best.length || (d.length === best.length && compareCodeUnits(d, best) < 0)) best = d;
  }
  return best ?? '';
}

/** "the root AGENTS.md uses 31,904 of 32,768 bytes" — who spent the budget before `file`. */
function budgetDetail(result: ProfileResult, file: ProfileFile): string {
  if (!result.budget) return file.skipped ?? 'the agent\'s budget is exhausted';
  const before = result.files.slice(0, result.files.indexOf(file)).filter((f) => f.origin === 'project' && f.keptBytes > 0 && !f.skipped);
  const used = before.reduce((n, f) => n + f.keptBytes, 0);
  const who = before.length === 0 ? 'earlier files' : before.length === 1 ? (before[0]!.path.includes('/') ? before[0]!.path : `the root ${before[0]!.path}`)
    : `${before[0]!.path} and ${before.length - 1} more`;
  const verb = before.length === 1 ? 'uses' : 'use';
  return `${who} ${verb} ${fmt(used)} of ${fmt(result.budget.limit)} ${result.budget.unit}`;
}

function findingsOf(profile: AgentProfile, result: ProfileResult, canonical: ReadonlySet<string>, pathCount: number, view: RepoView): Finding[] {
  const out: Finding[] = [];
  const add = (code: string, file: string, detail: string): void => { out.push({ code, file, profile, paths: pathCount, detail }); };
  // A file the agent skips by one name but loads whole by another (CLAUDE.md as a
  // symlink to AGENTS.md) loses nothing: compare by content, not by name.
  const loadedBytes = result.files.filter((f) => !f.skipped && !f.cut && !f.path.startsWith('~/')).map((f) => view.read(f.path));
  const loadedElsewhere = (path: string): boolean => {
    const bytes = view.read(path);
    return bytes !== undefined && bytes.length > 0 && loadedBytes.some((b) => b !== undefined && b.length === bytes.length && Buffer.from(b).equals(bytes));
  };
  for (const f of result.files) {
    if (f.path.startsWith('~/')) continue;
    if (f.skipped?.startsWith(SKIP_BUDGET)) add('RC5501', f.path, budgetDetail(result, f));
    else if (f.cut) add('RC5502', f.path, `at byte ${fmt(f.cut.offset)}, ${fmt(f.cut.bytesLost)} bytes lost: ${budgetDetail(result, f)}`);
    else if (f.skipped && canonical.has(f.path) && !f.skipped.startsWith(SKIP_LAZY) && !f.skipped.startsWith('blank') && !loadedElsewhere(f.path)) add('RC5503', f.path, f.skipped);
    else if (!f.skipped && f.origin === 'project' && !canonical.has(f.path)) add('RC5504', f.path, f.reason);
  }
  return out;
}

function message(f: Finding): string {
  const at = `at ${fmt(f.paths)} path${f.paths === 1 ? '' : 's'}`;
  const a = f.profile.agent;
  switch (f.code) {
    case 'RC5501': return `${a} drops ${f.file} ${at}: ${f.detail}`;
    case 'RC5502': return `${a} truncates ${f.file} ${at} ${f.detail}`;
    case 'RC5503': return `${a} does not load ${f.file} ${at} where rulec does: ${f.detail}`;
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

export function evaluateProfiles(
  view: RepoView,
  variants: readonly { id: string; dirs: readonly string[]; pathCount: number }[],
  enabled: readonly string[],
  options: Record<string, Record<string, unknown>>,
  canonicalSources: (variantId: string) => readonly string[],
): ProfileEvaluation {
  const diagnostics: Diagnostic[] = [];
  const profiles: AgentProfile[] = [];
  for (const name of enabled) {
    const p = profileByName(name);
    if (p) profiles.push(p);
    else diagnostics.push(diag('RC5505', { file: '', message: `unknown agent profile '${name}' in profiles.enabled` }));
  }
  const perVariant: Record<string, Record<string, ProfileFit>> = {};
  const findings: Finding[] = [];
  for (const v of variants) {
    const cwd = representativeDir(v.dirs);
    const canonical = new Set(canonicalSources(v.id));
    const row: Record<string, ProfileFit> = {};
    for (const p of profiles) {
      let result: ProfileResult;
      try {
        result = p.load(view, cwd, options[p.name] ?? {});
      } catch (e) {
        // A profile bug must not take the build down: report it and go on.
        diagnostics.push(diag('RC9001', { file: '', message: `profile ${p.name} failed at ${cwd === '' ? 'the root' : cwd}: ${(e as Error).message}` }));
        continue;
      }
      const dropped = result.files.filter((f) => f.cut || f.skipped?.startsWith(SKIP_BUDGET)).map((f) => f.path);
      row[p.name] = { bytes: result.bytes, tokens: result.tokens, fits: !result.truncated, dropped };
      findings.push(...findingsOf(p, result, canonical, v.pathCount, view));
    }
    perVariant[v.id] = row;
  }
  return { perVariant, diagnostics: [...diagnostics, ...aggregate(findings)] };
}
