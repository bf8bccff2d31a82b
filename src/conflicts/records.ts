/**
 * Building conflict events from what detection found: a pair's disagreement,
 * a duplicated statement, a shadowed file (AGENTS.md); where they occur; and the two
 * caps that keep hostile input from producing unbounded work or output.
 */
import type { StageResult } from '../types.js';
import type { Policy } from '../config/policy.js';
import type { Resolution, ResolvedVariant } from '../resolve/resolve.js';
import { formatSpec, type Shadowing } from '../formats/formats.js';
import { diag, type Diagnostic } from '../diagnostics/diagnostic.js';
import { compareCodeUnits } from '../util/compare.js';
import type { SourceFacts } from './facts.js';
import type { PairConflict } from './pairs.js';
import type { DuplicateGroup } from './duplicates.js';
import { eventId, rulingText, sideOf, textEventId, type ConflictEvent, type ConflictSide } from './events.js';
import type { ConflictKind } from '../diagnostics/conflict-codes.js';
import { eventSeverity, severityDecision } from '../validate/severity.js';

/**
 * An event's severity as the policy decides it (src/validate/severity.ts), so the caps rank
 * events as they will be reported; a kind turned `off` is dropped when the events are final.
 */
export function severityOf(kind: ConflictKind, policy: Policy): ConflictEvent['severity'] {
  const s = eventSeverity(kind, severityDecision(policy));
  return s === 'off' ? 'info' : s;
}

export function pairEvent(c: PairConflict, factsFor: (id: string) => SourceFacts | null, policy: Policy): ConflictEvent {
  const sides: ConflictSide[] = c.sides.map((l) => {
    const a = factsFor(l.source)?.authority;
    return sideOf(l, a?.layer ?? '', a?.scope ?? '');
  });
  const key = c.sides[0]?.finding.key ?? '';
  const topic = key === '' ? c.topic : `${c.topic}/${key}`;
  return {
    type: 'instruction_conflict',
    id: eventId(topic, c.kind, sides),
    kind: c.kind,
    topic,
    variants: [],
    paths: { count: 0, examples: [] },
    sides,
    adopted: c.adopted,
    ruling: rulingText(c.kind, topic, sides, c.adopted),
    reason: c.reason,
    severity: severityOf(c.kind, policy),
  };
}

const TEXT_TOPIC = 'duplicate-text';

/** One event per duplicated statement; `wasted_tokens` is filled in once tokens are counted. */
export function groupEvent(g: DuplicateGroup, policy: Policy): ConflictEvent {
  const sides = g.copies.map((c) => sideOf(c.statement.at, c.facts.authority.layer, c.facts.authority.scope));
  const adopted = g.keep?.facts.id ?? null;
  const reason = g.kind === 'copy'
    ? 'files written for different agents at the same scope and layer (AGENTS.md, CLAUDE.md, a Cursor rule …) each carry the statement; keep them in sync, or keep it in one file and import it from the others'
    : `up to ${g.together} copies load in one context and the agent reads each of them; ${adopted} loads on the most paths, so the other copies can go`;
  return {
    type: 'instruction_conflict',
    id: textEventId(TEXT_TOPIC, g.kind, g.text, sides),
    kind: g.kind,
    topic: TEXT_TOPIC,
    variants: [],
    paths: { count: 0, examples: [] },
    sides,
    adopted,
    ruling: rulingText(g.kind, TEXT_TOPIC, sides, adopted),
    reason,
    severity: severityOf(g.kind, policy),
  };
}

/** The three smallest directories of each variant, computed once per variant. */
const smallestDirs = new WeakMap<ResolvedVariant, string[]>();

export function withPaths(e: ConflictEvent, variants: Set<ResolvedVariant>): ConflictEvent {
  const list = [...variants].sort((a, b) => compareCodeUnits(a.id, b.id));
  let count = 0;
  const candidates: string[] = [];
  for (const v of list) {
    count += v.pathCount;
    let small = smallestDirs.get(v);
    if (!small) {
      small = [];
      for (const d of v.dirs) insertSmallest(small, d === '' ? '.' : d, 3);
      smallestDirs.set(v, small);
    }
    candidates.push(...small);
  }
  const examples: string[] = [];
  for (const d of candidates) insertSmallest(examples, d, 3);
  return { ...e, variants: list.map((v) => v.id), paths: { count, examples } };
}

/** Keep `list` the n smallest distinct items (code-unit order), sorted. */
function insertSmallest(list: string[], item: string, n: number): void {
  if (list.length === n && compareCodeUnits(item, list[n - 1] as string) >= 0) return;
  if (list.includes(item)) return;
  let i = list.length;
  while (i > 0 && compareCodeUnits(item, list[i - 1] as string) < 0) i--;
  list.splice(i, 0, item);
  if (list.length > n) list.pop();
}

/**
 * One shadow event per file whose format shadows another (AGENTS.override.md) and a file of
 * that format in the same directory (AGENTS.md); its topic is the shadowing format's name.
 */
export function shadowEvents(res: Resolution, factsFor: (id: string) => SourceFacts | null, policy: Policy): { event: ConflictEvent; variants: Set<ResolvedVariant> }[] {
  const out: { event: ConflictEvent; variants: Set<ResolvedVariant> }[] = [];
  const shadowers = [...res.sources.values()].filter((s) => s.info.activation === 'standing' && formatSpec(s.file.format)?.shadows);
  if (shadowers.length === 0) return out;
  const at = (format: string, scope: string): string => `${format}\0${scope}`;
  const byPlace = new Map<string, string>();
  for (const s of res.sources.values()) if (!byPlace.has(at(s.file.format, s.file.scope))) byPlace.set(at(s.file.format, s.file.scope), s.file.id);
  for (const s of shadowers) {
    const shadows = formatSpec(s.file.format)?.shadows as Shadowing;
    const shadowedId = byPlace.get(at(shadows.format, s.file.scope));
    const fo = factsFor(s.file.id);
    const fs = shadowedId === undefined ? null : factsFor(shadowedId);
    if (!fo || !fs) continue;
    const side = (f: SourceFacts, value: string): ConflictSide => ({ source: f.id, line: f.top.line, col: 1, layer: f.authority.layer,
      scope: f.authority.scope, rule: '*', value, excerpt: '' });
    const sides = [side(fo, 'loaded'), side(fs, 'shadowed')];
    const topic = s.file.format;
    const event: ConflictEvent = {
      type: 'instruction_conflict', id: eventId(topic, 'shadow', sides), kind: 'shadow', topic, variants: [], paths: { count: 0, examples: [] },
      sides, adopted: fo.id, ruling: rulingText('shadow', topic, sides, fo.id), reason: shadows.reason, severity: severityOf('shadow', policy),
    };
    out.push({ event, variants: new Set(res.variants.filter((v) => v.sources.some((r) => r.id === s.file.id))) });
  }
  return out;
}

const RANK = { error: 0, warning: 1, info: 2 } as const;

/**
 * At most `limit` events: every error stays (a violation is never hidden), then
 * warnings before infos, by id. The rest are dropped with one RC3107.
 */
export function eventCap(sorted: ConflictEvent[], limit: number, stoppedEarly = false): StageResult<ConflictEvent[]> {
  if (sorted.length <= limit && !stoppedEarly) return { value: sorted, diagnostics: [] };
  const ranked = [...sorted].sort((a, b) => RANK[a.severity] - RANK[b.severity] || compareCodeUnits(a.id, b.id));
  const errors = ranked.filter((e) => e.severity === 'error').length;
  const kept = new Set(ranked.slice(0, Math.max(limit, errors)));
  const dropped = sorted.filter((e) => !kept.has(e));
  const by = (s: string): number => dropped.filter((e) => e.severity === s).length;
  return {
    value: sorted.filter((e) => kept.has(e)),
    diagnostics: [diag('RC3107', { file: '', message: `${sorted.length} conflict events, more than conflicts.limits.events (${limit}): `
      + `${dropped.length} (${by('warning')} warnings, ${by('info')} infos) are not recorded; every error is`
      + `${stoppedEarly ? '. Detection stopped early, so other pairs of files were not compared (violations of enforced rules always are)' : ''}` })],
  };
}

/** RC3106 for each source and topic whose distinct findings passed the limit. */
export function droppedFindings(facts: Iterable<SourceFacts | null>, limit: number): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const f of facts) {
    if (!f) continue;
    for (const [topic, d] of f.dropped) {
      out.push(diag('RC3106', { file: f.id, range: { start: { line: d.line, col: d.col }, end: { line: d.line, col: d.col } },
        message: `${f.id} has more than ${limit} distinct findings on ${topic}; ${d.count} from here on are not compared (conflicts.limits.findings_per_topic)` }));
    }
  }
  return out;
}
