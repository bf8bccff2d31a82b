/**
 * A compile result → the plain report data of `rulec lint` and `rulec build`
 * (pure). Everything a reporter needs is copied out here, so reporters never
 * see a CompileResult, a Map or a parsed document.
 */
import type { CompileResult } from '../../compile.js';
import type { ConflictEvent } from '../../conflicts/events.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { maskSourceLine } from '../../diagnostics/redact.js';
import { compareCodeUnits } from '../../util/compare.js';
import type { BuildReport, BuildSummary, FrameLines, LintReport, ToolInfo, VariantFacts } from './types.js';

const MAX_VARIANTS = 50;
const MAX_DIRS = 5;

/** The lines each diagnostic points at, from the parsed documents of the result; secrets masked by position. */
export function frameLinesOf(result: CompileResult, diagnostics: readonly Diagnostic[]): FrameLines {
  const out: FrameLines = Object.create(null) as FrameLines;
  const split = new Map<string, string[]>();
  for (const d of diagnostics) {
    if (d.file === '') continue;
    const doc = result.resolution.sources.get(d.file)?.doc;
    if (!doc) continue;
    let lines = split.get(d.file);
    if (!lines) split.set(d.file, (lines = doc.text.split('\n')));
    const text = lines[d.range.start.line - 1];
    if (text === undefined) continue;
    const perFile = out[d.file] ?? (out[d.file] = Object.create(null) as Record<string, string>);
    perFile[String(d.range.start.line)] = maskSourceLine(d.file, d.range.start.line, text, result.redactions);
  }
  return out;
}

/** Events with a side in scope (every event when there is no scope). */
function eventsIn(events: readonly ConflictEvent[], inScope: ((file: string) => boolean) | null): ConflictEvent[] {
  return inScope === null ? [...events] : events.filter((e) => e.sides.some((s) => inScope(s.source)));
}

export interface Where {
  /** The repository as the user named it. */
  repo: string;
  /** The policy file, repo-relative posix, when it lies inside the repository. */
  policy_file: string | null;
}

/** `inScope`: the PATH filters of `rulec lint PATH…` (null: every file); `shown` are the diagnostics they keep. */
export function lintReportOf(result: CompileResult, shown: readonly Diagnostic[], inScope: ((file: string) => boolean) | null, where: Where, tool: ToolInfo): LintReport {
  return {
    command: 'lint', tool, repo: where.repo, policy_file: where.policy_file, diagnostics: [...shown],
    conflicts: eventsIn(result.manifest.conflicts, inScope),
    lines: frameLinesOf(result, shown),
  };
}

export function summaryOf(r: CompileResult): BuildSummary {
  const layers: Record<string, number> = {};
  for (const s of r.resolution.sources.values()) layers[s.info.layer] = (layers[s.info.layer] ?? 0) + 1;
  const ordered: Record<string, number> = {};
  for (const l of ['managed', 'repo', 'path', 'local', 'user']) if (layers[l]) ordered[l] = layers[l];
  let largest: BuildSummary['largest'] = null;
  for (const v of r.variants) if (!largest || v.tokens > largest.tokens) largest = { id: v.id, tokens: v.tokens, paths: 0 };
  if (largest) largest.paths = r.resolution.variants.find((v) => v.id === largest?.id)?.pathCount ?? 0;
  let tokens = 0;
  for (const t of r.sourceTokens.values()) tokens += t;
  return { paths: r.discovered.paths.length, sources: r.resolution.sources.size, layers: ordered, variants: r.variants.length, attachments: r.attachments.length, tokens, largest };
}

function variantFacts(r: CompileResult): VariantFacts[] {
  const facts: VariantFacts[] = [];
  for (const v of r.resolution.variants) {
    const m = r.manifest.variants[v.id];
    if (!m) continue;
    const dirs = v.dirs.map((d) => (d === '' ? '.' : d));
    facts.push({
      id: v.id, paths: v.pathCount, tokens: m.tokens, bytes: m.bytes,
      dirs: dirs.slice(0, MAX_DIRS), dirs_omitted: Math.max(0, dirs.length - MAX_DIRS),
      profiles: Object.keys(m.profiles).sort(compareCodeUnits).map((name) => {
        const p = m.profiles[name] as NonNullable<(typeof m.profiles)[string]>;
        return { profile: name, bytes: p.bytes, tokens: p.tokens, fits: p.fits, dropped: [...p.dropped] };
      }),
    });
  }
  return facts.sort((a, b) => b.paths - a.paths || compareCodeUnits(a.id, b.id));
}

export interface BuildOutcome extends Where {
  written: string | null;
  check: { out: string; stale: boolean } | null;
}

export function buildReportOf(result: CompileResult, outcome: BuildOutcome, tool: ToolInfo): BuildReport {
  const variants = variantFacts(result);
  return {
    command: 'build', tool, repo: outcome.repo,
    bundle_id: result.manifest.bundle_id, digest: result.digest, tokenizer: result.policy.tokenizer,
    written: outcome.written, check: outcome.check,
    summary: summaryOf(result),
    variant_budget: result.policy.budgets.variant_tokens,
    variants: variants.slice(0, MAX_VARIANTS), variants_omitted: Math.max(0, variants.length - MAX_VARIANTS),
    policy_file: outcome.policy_file,
    diagnostics: [...result.diagnostics],
    conflicts: [...result.manifest.conflicts],
    lines: frameLinesOf(result, result.diagnostics),
  };
}
