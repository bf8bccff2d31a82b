/**
 * detectConflicts(): find the disagreements between instruction sources that
 * load together, rule on each by the authority cascade, and record it.
 *
 * 1. For every source, extract its facts once: rules (with stable ids),
 *    distinct topic findings with file positions (capped per topic, RC3106),
 *    long statements for duplicates.
 * 2. For every variant, compare the pairs of its standing sources that speak
 *    to the same topic and key, skipping a topic whose values in that variant
 *    cannot disagree (pair results are cached: a pair rules the same way in
 *    every variant). For every attachment, do the same with each variant it
 *    can attach in, and for the attachments of one family that some path
 *    loads together, with each other (reach.ts).
 * 3. Each disagreement is ruled by the cascade (cascade.ts) and becomes an
 *    event whose id is derived from its content (events.ts); an event
 *    collects every variant it occurs in, the path count and three example
 *    directories.
 * 4. Duplicated statements are grouped per text (duplicates.ts): one event
 *    per statement listing every copy; its wasted tokens are counted in the
 *    second phase, with the build's token counter.
 * 5. AGENTS.override.md beside AGENTS.md is a shadow event.
 * 6. Past conflicts.limits.events, the least severe events are dropped (never
 *    an error) with RC3107. Severities come from the policy by kind; overrides
 *    accept events (or fail when expired or aimed at an enforced rule).
 * 7. Events sort by id; each yields one diagnostic at its losing side.
 *
 * scanConflicts() does steps 1–5 and returns, as plain data, the events found
 * and the statements whose tokens it needs; finishConflicts() counts them and
 * does 6–7. detectConflicts() does both. Which rule wins each topic of a
 * variant is asked of topicsFor() (topics-for.ts), over the same resolution.
 */
import type { Layer, StageResult } from '../types.js';
import type { Policy } from '../config/policy.js';
import type { Resolution, ResolvedVariant } from '../resolve/resolve.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { tokenCounter, type TokenCounter } from '../validate/token-count.js';
import { DEFAULT_LAYER_ORDER } from './cascade.js';
import { DEFAULT_FINDINGS_PER_TOPIC, factsOf, StatementAnalyses, type SourceFacts } from './facts.js';
import { pairConflicts, type PairConflict } from './pairs.js';
import { duplicateGroups, type DuplicateGroup } from './duplicates.js';
import { reachOf, type Reach } from './reach.js';
import { diagnosticOf, sortEvents, type ConflictEvent } from './events.js';
import { eventSeverity, severityDecision } from '../validate/severity.js';
import { droppedFindings, eventCap, groupEvent, pairEvent, shadowEvents, withPaths } from './records.js';
import { applyOverrides } from './overrides.js';
import { contestedKeys, pairsAcross, pairsWithin, speakerIndex, type SpeakerIndex } from './speakers.js';

export type { ConflictEvent, ConflictSide } from './events.js';
export type { ConflictKind } from '../diagnostics/conflict-codes.js';
export type { TopicRuling } from './topics-for.js';

/** Steps 1–5, as data: what finishConflicts() needs besides the token counts. */
export interface ConflictScan {
  /** Statements whose token counts the duplicate events need. */
  texts: string[];
  /** Every pair, shadow and enforced event found, with its variants and paths. */
  events: ConflictEvent[];
  /** One event per duplicated statement; `wasted_tokens` is counted from `texts[i]` by finishConflicts(). */
  duplicates: { event: ConflictEvent; together: number }[];
  /** RC3106 for findings past the per-topic limit. */
  dropped: Diagnostic[];
  /** Whether detection stopped early at the event cap (some pairs not compared). */
  stopped: boolean;
}

export const DEFAULT_EVENT_LIMIT = 10_000;

export function detectConflicts(res: Resolution, policy: Policy, today: string, counter?: TokenCounter): StageResult<ConflictEvent[]> {
  return finishConflicts(scanConflicts(res, policy), policy, counter ?? tokenCounter(policy.tokenizer), today);
}

export function scanConflicts(res: Resolution, policy: Policy): ConflictScan {
  const layerOrder: readonly Layer[] = policy.conflicts?.layer_order ?? DEFAULT_LAYER_ORDER;
  const limit = policy.conflicts?.limits?.findings_per_topic ?? DEFAULT_FINDINGS_PER_TOPIC;
  const facts = new Map<string, SourceFacts | null>();
  // A paragraph pasted into many files is analysed once.
  const analyses = new StatementAnalyses();
  const factsFor = (id: string): SourceFacts | null => {
    let f = facts.get(id);
    if (f === undefined) {
      const s = res.sources.get(id);
      facts.set(id, (f = s ? factsOf(s, limit, analyses) : null));
    }
    return f;
  };
  const rec = new Recorder(factsFor, layerOrder, policy);
  const standing = res.variants.map((v) => [...new Set(v.sources.map((r) => r.id))]);
  const reach = reachOf(res);
  enforcedPairs(res, standing, reach, factsFor, rec);
  const stopped = candidatePairs(res, standing, reach, factsFor, rec, 2 * (policy.conflicts?.limits?.events ?? DEFAULT_EVENT_LIMIT));
  for (const { event, variants } of shadowEvents(res, factsFor, policy)) rec.building.set(event.id, { event, variants });
  const groups = duplicateGroups(res, reach, factsFor, layerOrder);
  return {
    texts: groups.map(keptText),
    events: [...rec.building.values()].map(({ event, variants }) => withPaths(event, variants)),
    duplicates: groups.map((g) => ({ event: withPaths(groupEvent(g, policy), new Set(g.variants)), together: g.together })),
    dropped: droppedFindings(facts.values(), limit),
    stopped,
  };
}

/** Steps 6–7 over a scan: count the wasted tokens, apply the event cap and the overrides, and report. */
export function finishConflicts(scan: ConflictScan, policy: Policy, counter: TokenCounter, today: string): StageResult<ConflictEvent[]> {
  const eventLimit = policy.conflicts?.limits?.events ?? DEFAULT_EVENT_LIMIT;
  // Copies: the overrides mark events accepted, and the scan stays as it was.
  const all = scan.events.map((e) => ({ ...e }));
  scan.duplicates.forEach(({ event, together }, i) => {
    all.push({ ...event, wasted_tokens: counter.count(scan.texts[i] as string) * (together - 1) });
  });
  const capped = eventCap(sortEvents(all), eventLimit, scan.stopped);
  const diagnostics = [...scan.dropped, ...capped.diagnostics];
  diagnostics.push(...applyOverrides(capped.value, policy.conflicts?.overrides ?? [], today));
  // A kind the policy turns off is not recorded (its events were built at the catalogue's severity).
  const decide = severityDecision(policy);
  const events = capped.value.filter((e) => eventSeverity(e.kind, decide) !== 'off');
  diagnostics.push(...events.map(diagnosticOf));
  return { value: events, diagnostics };
}

/** Pair results (cached: a pair rules the same way in every variant) and the events they become, with their variants. */
class Recorder {
  readonly building = new Map<string, { event: ConflictEvent; variants: Set<ResolvedVariant> }>();
  private readonly pairs = new Map<string, PairConflict[]>();
  // A cached pair yields the same PairConflict objects in every variant: build (and hash) each event once.
  private readonly eventOf = new Map<PairConflict, ConflictEvent>();

  constructor(private readonly factsFor: (id: string) => SourceFacts | null, private readonly layerOrder: readonly Layer[],
    private readonly policy: Policy) {}

  pairsOf(a: string, b: string): PairConflict[] {
    const key = a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`;
    let found = this.pairs.get(key);
    if (!found) {
      const fa = this.factsFor(a);
      const fb = this.factsFor(b);
      found = fa && fb ? pairConflicts(fa, fb, this.layerOrder) : [];
      this.pairs.set(key, found);
    }
    return found;
  }

  /** Record every disagreement of a and b as occurring in v. */
  compare(a: string, b: string, v: ResolvedVariant): void {
    for (const c of this.pairsOf(a, b)) {
      let e = this.eventOf.get(c);
      if (!e) this.eventOf.set(c, (e = pairEvent(c, this.factsFor, this.policy)));
      const existing = this.building.get(e.id);
      if (existing) existing.variants.add(v);
      else this.building.set(e.id, { event: e, variants: new Set([v]) });
    }
  }
}

/** Every pair with an enforced managed source, in every context: no violation is ever missed, whatever the caps. */
function enforcedPairs(res: Resolution, standing: string[][], reach: Reach, factsFor: (id: string) => SourceFacts | null, rec: Recorder): void {
  res.variants.forEach((v, vi) => {
    const ids = standing[vi] as string[];
    const enforced = ids.filter((id) => factsFor(id)?.authority.enforced);
    if (enforced.length === 0) return;
    const others = [...ids, ...(reach.reaching[vi] ?? []).flatMap((ai) => reach.list[ai]?.own ?? [])];
    for (const e of enforced) for (const o of others) if (o !== e) rec.compare(e, o, v);
  });
}

/**
 * Every candidate pair (speakers.ts) of each variant's standing sources, of
 * each attachment with itself and the variants it reaches, and of the
 * attachments that load together, until `stopAt` events exist. Returns
 * whether it stopped early.
 */
function candidatePairs(res: Resolution, standing: string[][], reach: Reach, factsFor: (id: string) => SourceFacts | null, rec: Recorder,
  stopAt: number): boolean {
  let stopped = false;
  // Every index below holds only the keys some of its sources can disagree on.
  const only = contestedKeys([...standing.flat(), ...reach.list.flatMap((a) => a.own)], factsFor);
  const own = new Map<number, SpeakerIndex>();
  for (let vi = 0; vi < res.variants.length && !stopped; vi++) {
    const v = res.variants[vi] as ResolvedVariant;
    const done = new Set<string>();
    const sink = (a: string, b: string): boolean => {
      const pair = a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`;
      if (!done.has(pair)) {
        done.add(pair);
        rec.compare(a, b, v);
      }
      return !(stopped ||= rec.building.size >= stopAt);
    };
    const ix = speakerIndex(standing[vi] as string[], factsFor, only);
    if (!pairsWithin(ix, sink)) break;
    for (const ai of reach.reaching[vi] ?? []) {
      let mine = own.get(ai);
      if (!mine) own.set(ai, (mine = speakerIndex(reach.list[ai]?.own ?? [], factsFor, only)));
      if (!pairsWithin(mine, sink) || !pairsAcross(mine, ix, sink)) break;
    }
  }
  for (let gi = 0; gi < reach.together.length && !stopped; gi++) {
    const g = reach.together[gi] as Reach['together'][number];
    const variants = g.variants.map((vi) => res.variants[vi] as ResolvedVariant);
    const done = new Set<string>();
    pairsWithin(speakerIndex(g.members.flatMap((ai) => reach.list[ai]?.own ?? []), factsFor, only), (a, b) => {
      const pair = a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`;
      if (!done.has(pair)) {
        done.add(pair);
        for (const v of variants) rec.compare(a, b, v);
      }
      return !(stopped ||= rec.building.size >= stopAt);
    });
  }
  return stopped;
}

function keptText(g: DuplicateGroup): string {
  return (g.keep ?? (g.copies[0] as DuplicateGroup['copies'][number])).statement.text;
}
