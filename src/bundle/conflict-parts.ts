/**
 * How a manifest's conflict events are stored: split by who reads what.
 *
 * 1. `conflicts-<x>` parts (the events whose id starts `c-<x>`, sorted by id)
 *    hold what a reader of one path shows (`explain`): each event's ruling
 *    and, per side, its source, line, column and value — nothing else.
 * 2. Sides are stored by source: `conflict-sources` lists, once and sorted,
 *    every source that any side names, and a side names its source by its
 *    place in that list. A duplicated paragraph's hundreds of copies sit in
 *    the same files event after event, so the file names, most of what a
 *    path reader read (and parsed, and hashed), are written once.
 * 3. A side's value is written once per run of consecutive sides that say the
 *    same thing (all the copies of a paragraph), and a run holds its sides'
 *    sources, lines and columns as three lists of the same length.
 * 4. `conflict-details` holds the rest, by event id: where the event applies
 *    (variants, paths), its cost and acceptance, and per side its layer, rule,
 *    scope and excerpt (in runs of one excerpt, as values are). Only readers of
 *    the whole manifest read it (full verification, diff, the registry).
 * 5. Joining them gives back every event whole (`joinConflicts`); encoding the
 *    join again must give the same bytes (full verification), so parts that
 *    disagree are refused. A reader of one part refuses a run whose lists
 *    differ in length or a source place outside the list (`rulingOf`).
 * A field missing from a (forged) event is written as null, never dropped,
 * so the part's schema refuses it either way.
 */
import type { ConflictEvent, ConflictSide } from '../conflicts/events.js';
import { compareCodeUnits } from '../util/compare.js';

/** The part holding every event's details. */
export const CONFLICT_DETAILS_PART = 'conflict-details';
/** The part listing every source a side names. */
export const CONFLICT_SOURCES_PART = 'conflict-sources';

/**
 * A conflict event as a reader of one path shows it: the ruling, and where
 * each side is and what it says — each side exactly these four fields, in
 * this order (explain prints the sides as they are).
 */
export type ConflictRuling = Pick<ConflictEvent, 'id' | 'kind' | 'topic' | 'severity' | 'adopted' | 'ruling' | 'reason'> & {
  sides: Pick<ConflictSide, 'source' | 'line' | 'col' | 'value'>[];
};

/** Consecutive sides with the same value: each side's place in conflict-sources, line and column. */
export interface SideRun {
  value: string;
  source: number[];
  line: number[];
  col: number[];
}

/** One event in a conflicts part. */
export interface StoredRuling extends Omit<ConflictRuling, 'sides'> {
  sides: SideRun[];
}

/** Consecutive sides with the same excerpt: each side's layer, rule and scope. */
export interface DetailRun {
  excerpt: string;
  layer: string[];
  rule: string[];
  scope: string[];
}

/** One event in the conflict-details part (keyed by event id). */
export interface StoredDetails extends Pick<ConflictEvent, 'type' | 'variants' | 'paths' | 'wasted_tokens' | 'accepted'> {
  sides: DetailRun[];
}

// `?? null`: a field missing from a (forged) event is encoded so the part's schema refuses it, never dropped.
const orNull = <T>(v: T | undefined): T => (v === undefined ? (null as T) : v);

/** Consecutive sides with the same `keyOf`, each run with one list per column. */
function runs<R extends object>(sides: readonly ConflictSide[], keyOf: (s: ConflictSide) => string, make: (key: string) => R, add: (run: R, s: ConflictSide) => void): R[] {
  const out: R[] = [];
  let last: string | undefined;
  for (const s of sides) {
    const k = keyOf(s);
    if (out.length === 0 || k !== last) out.push(make(k));
    add(out[out.length - 1] as R, s);
    last = k;
  }
  return out;
}

/** Every source a side of `events` names, sorted: the conflict-sources part. */
export function conflictSources(events: readonly ConflictEvent[]): string[] {
  const all = new Set<string>();
  for (const e of events) for (const s of Array.isArray(e.sides) ? e.sides : []) if (typeof s.source === 'string') all.add(s.source);
  return [...all].sort(compareCodeUnits);
}

/** What a conflicts part stores of event `e`; `place` gives a source's place in conflict-sources. */
export function storedRuling(e: ConflictEvent, place: ReadonlyMap<string, number>): StoredRuling {
  const { id, kind, topic, severity, adopted, ruling, reason } = e;
  const sides = Array.isArray(e.sides)
    ? runs(e.sides, (s) => orNull(s.value), (value): SideRun => ({ value, source: [], line: [], col: [] }), (run, s) => {
      run.source.push(orNull(place.get(s.source)));
      run.line.push(orNull(s.line));
      run.col.push(orNull(s.col));
    })
    : (undefined as unknown as StoredRuling['sides']);
  return { id, kind, topic, severity, adopted, ruling, reason, sides };
}

/** What the conflict-details part stores of event `e`. */
export function storedDetails(e: ConflictEvent): StoredDetails {
  const { type, variants, paths, wasted_tokens, accepted } = e;
  const sides = Array.isArray(e.sides)
    ? runs(e.sides, (s) => orNull(s.excerpt), (excerpt): DetailRun => ({ excerpt, layer: [], rule: [], scope: [] }), (run, s) => {
      run.layer.push(orNull(s.layer));
      run.rule.push(orNull(s.rule));
      run.scope.push(orNull(s.scope));
    })
    : (undefined as unknown as StoredDetails['sides']);
  return { type, variants, paths, wasted_tokens, accepted, sides };
}

/** Event `e` as a path reader shows it (what the conflicts parts store of it). */
export function rulingView(e: ConflictEvent): ConflictRuling {
  const { id, kind, topic, severity, adopted, ruling, reason } = e;
  return { id, kind, topic, severity, adopted, ruling, reason, sides: e.sides.map(({ source, line, col, value }) => ({ source, line, col, value })) };
}

/**
 * The event a conflicts part stores, as a path reader shows it, its sources
 * read from conflict-sources; a message saying what is wrong instead when a
 * run's lists differ in length or a source place is not in the list.
 */
export function rulingOf(r: StoredRuling, sources: readonly string[]): ConflictRuling | string {
  const { id, kind, topic, severity, adopted, ruling, reason } = r;
  // Plain loops: a duplicated paragraph has hundreds of sides, decoded once by a short-lived process.
  const sides: ConflictRuling['sides'] = [];
  for (const run of r.sides) {
    const n = run.source.length;
    if (run.line.length !== n || run.col.length !== n) return `conflict event ${id} has a run of sides whose lists differ in length`;
    for (let i = 0; i < n; i++) {
      const source = sources[run.source[i] as number];
      if (source === undefined) return `conflict event ${id} names source ${run.source[i]}, which conflict-sources does not list`;
      sides.push({ source, line: run.line[i] as number, col: run.col[i] as number, value: run.value });
    }
  }
  return { id, kind, topic, severity, adopted, ruling, reason, sides };
}

/**
 * Whole events from the conflicts parts' rulings (in id order), the source
 * list and the details by id. Parts that disagree (an event without details,
 * side counts or lists that differ, a source place outside the list) join
 * into events that do not encode back to the same parts, which full
 * verification refuses.
 */
export function joinConflicts(rulings: readonly StoredRuling[], sources: readonly string[], details: Readonly<Record<string, StoredDetails>>): ConflictEvent[] {
  return rulings.map((r) => {
    const d = Object.prototype.hasOwnProperty.call(details, r.id) ? details[r.id] : undefined;
    // Whatever the lists hold: full verification encodes the join again and compares.
    const shown: Partial<ConflictSide>[] = [];
    for (const run of r.sides) for (let i = 0; i < run.source.length; i++) shown.push({ source: sources[run.source[i] as number], line: run.line[i], col: run.col[i], value: run.value });
    const context: Partial<ConflictSide>[] = [];
    for (const run of d?.sides ?? []) for (let i = 0; i < run.layer.length; i++) context.push({ layer: run.layer[i], rule: run.rule[i], scope: run.scope[i], excerpt: run.excerpt });
    const sides = shown.map((s, k) => ({ source: s.source, line: s.line, col: s.col, layer: context[k]?.layer, scope: context[k]?.scope, rule: context[k]?.rule,
      value: s.value, excerpt: context[k]?.excerpt }) as ConflictSide);
    const event = { type: d?.type, id: r.id, kind: r.kind, topic: r.topic, variants: d?.variants, paths: d?.paths, sides,
      adopted: r.adopted, ruling: r.ruling, reason: r.reason, severity: r.severity } as ConflictEvent;
    if (d?.wasted_tokens !== undefined) event.wasted_tokens = d.wasted_tokens;
    if (d?.accepted !== undefined) event.accepted = d.accepted;
    return event;
  });
}
