/**
 * How a manifest's conflict events are stored: split by who reads what.
 *
 * 1. `conflicts-<x>` parts (the events whose id starts `c-<x>`, sorted by id)
 *    hold what a reader of one path shows (`explain`): each event's ruling
 *    and, per side, its source, line, column and value — nothing else. A
 *    side's value is written once per run of consecutive sides that say the
 *    same thing: a duplicated paragraph's hundreds of copies share one value,
 *    which is most of what a path reader used to read (and parse, and hash).
 * 2. `conflict-details` holds the rest, by event id: where the event applies
 *    (variants, paths), its cost and acceptance, and per side its layer, rule,
 *    scope and excerpt (excerpts in runs, as values are). Only readers of the
 *    whole manifest read it (full verification, diff, the registry).
 * 3. Joining them gives back every event whole (`joinConflicts`); encoding the
 *    join again must give the same bytes (full verification), so two parts
 *    that disagree are refused. Decoding one part alone never fails: runs are
 *    read as they stand, with no index that could point outside a table.
 * A side's missing field is written as null (a row cannot leave it out), so the
 * part's schema refuses a forged event either way.
 */
import type { ConflictEvent, ConflictSide } from '../conflicts/events.js';

/** The part holding every event's details. */
export const CONFLICT_DETAILS_PART = 'conflict-details';

/**
 * A conflict event as a reader of one path shows it: the ruling, and where
 * each side is and what it says — each side exactly these four fields, in
 * this order (explain prints the sides as they are).
 */
export type ConflictRuling = Pick<ConflictEvent, 'id' | 'kind' | 'topic' | 'severity' | 'adopted' | 'ruling' | 'reason'> & {
  sides: Pick<ConflictSide, 'source' | 'line' | 'col' | 'value'>[];
};

/** One event in a conflicts part. */
export interface StoredRuling extends Omit<ConflictRuling, 'sides'> {
  /** The sides in order, as runs of consecutive sides with the same value: `at` holds each side's [source, line, col]. */
  sides: { value: string; at: [source: string, line: number, col: number][] }[];
}

/** One event in the conflict-details part (keyed by event id). */
export interface StoredDetails extends Pick<ConflictEvent, 'type' | 'variants' | 'paths' | 'wasted_tokens' | 'accepted'> {
  /** The sides in the same order, as runs of consecutive sides with the same excerpt: `at` holds each side's [layer, rule, scope]. */
  sides: { excerpt: string; at: [layer: string, rule: string, scope: string][] }[];
}

/** Consecutive items with the same key, as runs of `{key, at: row[]}`. */
function runs<K extends string, R>(sides: readonly ConflictSide[], key: K, keyOf: (s: ConflictSide) => string, rowOf: (s: ConflictSide) => R): ({ [k in K]: string } & { at: R[] })[] {
  const out: ({ [k in K]: string } & { at: R[] })[] = [];
  for (const s of sides) {
    const k = keyOf(s);
    const last = out[out.length - 1];
    if (last !== undefined && last[key] === k) last.at.push(rowOf(s));
    else out.push({ [key]: k, at: [rowOf(s)] } as { [k in K]: string } & { at: R[] });
  }
  return out;
}

// `?? null`: a field missing from a (forged) event is encoded so the part's schema refuses it, never dropped.
const orNull = <T>(v: T | undefined): T => (v === undefined ? (null as T) : v);

/** What a conflicts part stores of event `e`. */
export function storedRuling(e: ConflictEvent): StoredRuling {
  const { id, kind, topic, severity, adopted, ruling, reason } = e;
  const sides = Array.isArray(e.sides)
    ? runs(e.sides, 'value', (s) => orNull(s.value), (s): [string, number, number] => [orNull(s.source), orNull(s.line), orNull(s.col)])
    : (undefined as unknown as StoredRuling['sides']);
  return { id, kind, topic, severity, adopted, ruling, reason, sides };
}

/** What the conflict-details part stores of event `e`. */
export function storedDetails(e: ConflictEvent): StoredDetails {
  const { type, variants, paths, wasted_tokens, accepted } = e;
  const sides = Array.isArray(e.sides)
    ? runs(e.sides, 'excerpt', (s) => orNull(s.excerpt), (s): [string, string, string] => [orNull(s.layer), orNull(s.rule), orNull(s.scope)])
    : (undefined as unknown as StoredDetails['sides']);
  return { type, variants, paths, wasted_tokens, accepted, sides };
}

/** Event `e` as a path reader shows it (what the conflicts parts store of it). */
export function rulingView(e: ConflictEvent): ConflictRuling {
  const { id, kind, topic, severity, adopted, ruling, reason } = e;
  return { id, kind, topic, severity, adopted, ruling, reason, sides: e.sides.map(({ source, line, col, value }) => ({ source, line, col, value })) };
}

/** The event a conflicts part stores, as a path reader shows it. */
export function rulingOf(r: StoredRuling): ConflictRuling {
  const { id, kind, topic, severity, adopted, ruling, reason } = r;
  // Plain loops: a duplicated paragraph has hundreds of sides, decoded once by a short-lived process.
  const sides: ConflictRuling['sides'] = [];
  for (const run of r.sides) {
    for (let i = 0; i < run.at.length; i++) {
      const at = run.at[i] as StoredRuling['sides'][number]['at'][number];
      sides.push({ source: at[0], line: at[1], col: at[2], value: run.value });
    }
  }
  return { id, kind, topic, severity, adopted, ruling, reason, sides };
}

/**
 * Whole events from the conflicts parts' rulings (in id order) and the
 * details by id. Parts that disagree (an event without details, a side
 * count that differs) join into events that do not encode back to the same
 * parts, which full verification refuses.
 */
export function joinConflicts(rulings: readonly StoredRuling[], details: Readonly<Record<string, StoredDetails>>): ConflictEvent[] {
  return rulings.map((r) => {
    const d = Object.prototype.hasOwnProperty.call(details, r.id) ? details[r.id] : undefined;
    const context = (d?.sides ?? []).flatMap((run) => run.at.map(([layer, rule, scope]) => ({ layer, rule, scope, excerpt: run.excerpt })));
    const sides = rulingOf(r).sides.map((s, i) => {
      const c = context[i];
      return { source: s.source, line: s.line, col: s.col, layer: c?.layer, scope: c?.scope, rule: c?.rule, value: s.value, excerpt: c?.excerpt } as ConflictSide;
    });
    const event = { type: d?.type, id: r.id, kind: r.kind, topic: r.topic, variants: d?.variants, paths: d?.paths, sides,
      adopted: r.adopted, ruling: r.ruling, reason: r.reason, severity: r.severity } as ConflictEvent;
    if (d?.wasted_tokens !== undefined) event.wasted_tokens = d.wasted_tokens;
    if (d?.accepted !== undefined) event.accepted = d.accepted;
    return event;
  });
}
