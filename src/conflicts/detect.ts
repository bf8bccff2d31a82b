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
 *    can attach in (the variant's directories lie under its globs' base).
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
import { compareCodeUnits } from '../util/compare.js';
import { lowerBound } from '../util/sorted.js';
import { DEFAULT_LAYER_ORDER, globBase } from './cascade.js';
import { DEFAULT_FINDINGS_PER_TOPIC, factsOf, type SourceFacts } from './facts.js';
import { pairConflicts, type PairConflict } from './pairs.js';
import { duplicateGroups, type AttachmentReach, type DuplicateGroup } from './duplicates.js';
import { diagnosticOf, sortEvents, type ConflictEvent } from './events.js';
import { eventSeverity, severityDecision } from '../validate/severity.js';
import { droppedFindings, eventCap, groupEvent, pairEvent, shadowEvents, withPaths } from './records.js';
import { applyOverrides } from './overrides.js';
import { pairsAcross, pairsWithin, speakerIndex, type SpeakerIndex } from './speakers.js';

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
  const factsFor = (id: string): SourceFacts | null => {
    let f = facts.get(id);
    if (f === undefined) {
      const s = res.sources.get(id);
      facts.set(id, (f = s ? factsOf(s, limit) : null));
    }
    return f;
  };
  const rec = new Recorder(factsFor, layerOrder, policy);
  const standing = res.variants.map((v) => [...new Set(v.sources.map((r) => r.id))]);
  const reach = attachmentReach(res);
  enforcedPairs(res, standing, reach, factsFor, rec);
  const stopped = candidatePairs(res, standing, reach, factsFor, rec, 2 * (policy.conflicts?.limits?.events ?? DEFAULT_EVENT_LIMIT));
  for (const { event, variants } of shadowEvents(res, factsFor, policy)) rec.building.set(event.id, { event, variants });
  const groups = duplicateGroups(res, reach.list, factsFor, layerOrder);
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

interface Reach {
  list: AttachmentReach[];
  /** Per variant index, the attachments that can attach there. */
  reaching: number[][];
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
 * Every candidate pair (speakers.ts) of each variant's standing sources, and of
 * each attachment with itself and the variants it reaches, until `stopAt`
 * events exist. Returns whether it stopped early.
 */
function candidatePairs(res: Resolution, standing: string[][], reach: Reach, factsFor: (id: string) => SourceFacts | null, rec: Recorder,
  stopAt: number): boolean {
  let stopped = false;
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
    const ix = speakerIndex(standing[vi] as string[], factsFor);
    if (!pairsWithin(ix, sink)) break;
    for (const ai of reach.reaching[vi] ?? []) {
      let mine = own.get(ai);
      if (!mine) own.set(ai, (mine = speakerIndex(reach.list[ai]?.own ?? [], factsFor)));
      if (!pairsWithin(mine, sink) || !pairsAcross(mine, ix, sink)) break;
    }
  }
  return stopped;
}

function keptText(g: DuplicateGroup): string {
  return (g.keep ?? (g.copies[0] as DuplicateGroup['copies'][number])).statement.text;
}

/** Each attachment's own sources and the variants it can attach in; per variant, the attachments that reach it. */
function attachmentReach(res: Resolution): Reach {
  const under = variantsUnder(res.variants);
  const index = new Map(res.variants.map((v, i) => [v, i]));
  const reaching: number[][] = res.variants.map(() => []);
  const list = res.attachments.map((att, ai) => {
    const reached = [...new Set(att.globs.flatMap((g) => under(globBase(g))))].map((v) => index.get(v) as number).sort((p, q) => p - q);
    for (const vi of reached) (reaching[vi] as number[]).push(ai);
    return { own: [...new Set(att.sources.map((r) => r.id))], reached, matches: att.matches };
  });
  return { list, reaching };
}

/**
 * The variants with a directory at or below `base`, by binary search over the
 * sorted directories (memoised per base): an attachment is compared only with
 * the variants it can attach in, without scanning every variant's directories.
 */
function variantsUnder(variants: readonly ResolvedVariant[]): (base: string) => ResolvedVariant[] {
  const dirs = variants.flatMap((v) => v.dirs.map((d) => ({ d, v }))).sort((a, b) => compareCodeUnits(a.d, b.d));
  const keys = dirs.map((x) => x.d);
  const memo = new Map<string, ResolvedVariant[]>();
  return (base) => {
    let found = memo.get(base);
    if (!found) {
      const set = new Set<ResolvedVariant>();
      if (base === '') for (const v of variants) set.add(v);
      else {
        const exact = lowerBound(keys, base);
        if (keys[exact] === base) set.add((dirs[exact] as { v: ResolvedVariant }).v);
        // Directories below `base/` sort between `base/` and `base0` ('0' follows '/').
        for (let i = lowerBound(keys, `${base}/`), end = lowerBound(keys, `${base}0`); i < end; i++) set.add((dirs[i] as { v: ResolvedVariant }).v);
      }
      memo.set(base, (found = [...set]));
    }
    return found;
  };
}
