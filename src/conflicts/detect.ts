/**
 * detectConflicts(): find the disagreements between instruction sources that
 * load together, rule on each by the authority cascade, and record it.
 *
 * 1. For every source, extract its facts once: rules (with stable ids),
 *    topic findings with file positions, long statements for duplicates.
 * 2. For every variant, compare each pair of its standing sources (pair
 *    results are cached: a pair rules the same way in every variant). For
 *    every attachment, compare its sources with each variant it can attach in
 *    (the variant's directories lie under its globs' literal base).
 * 3. Each disagreement is ruled by the cascade (cascade.ts) and becomes an
 *    event whose id is derived from its content (events.ts); an event
 *    collects every variant it occurs in, the path count and three example
 *    directories.
 * 4. AGENTS.override.md beside AGENTS.md is a shadow event.
 * 5. Severities come from the policy by kind; overrides accept events (or
 *    fail when expired or aimed at an enforced rule) (overrides.ts).
 * 6. Events sort by id; each yields one diagnostic at its losing side.
 */
import type { Layer } from '../types.js';
import type { Policy } from '../config/policy.js';
import type { Resolution, ResolvedVariant } from '../resolve/resolve.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { compareCodeUnits } from '../util/compare.js';
import { lowerBound } from '../util/sorted.js';
import { DEFAULT_LAYER_ORDER, globBase } from './cascade.js';
import { factsOf, type SourceFacts } from './facts.js';
import { pairConflicts, type PairConflict } from './pairs.js';
import { DEFAULT_SEVERITY, diagnosticOf, eventId, rulingText, sideOf, sortEvents, type ConflictEvent, type ConflictKind, type ConflictSide } from './events.js';
import { applyOverrides } from './overrides.js';
import { topicsOfVariant, type TopicRuling } from './topics-for.js';

export type { ConflictEvent, ConflictSide, ConflictKind } from './events.js';
export type { TopicRuling } from './topics-for.js';

export interface ConflictResult {
  events: ConflictEvent[];
  diagnostics: Diagnostic[];
  topicsFor(variantId: string): TopicRuling[];
}

interface Building {
  event: ConflictEvent;
  variants: Set<ResolvedVariant>;
}

export function detectConflicts(res: Resolution, policy: Policy, today: string): ConflictResult {
  const layerOrder: readonly Layer[] = policy.conflicts?.layer_order ?? DEFAULT_LAYER_ORDER;
  const facts = new Map<string, SourceFacts>();
  const factsFor = (id: string): SourceFacts | null => {
    let f = facts.get(id);
    if (!f) {
      const s = res.sources.get(id);
      if (!s) return null;
      facts.set(id, (f = factsOf(s)));
    }
    return f;
  };
  const pairCache = new Map<string, PairConflict[]>();
  const pairsOf = (a: string, b: string): PairConflict[] => {
    const key = a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`;
    let found = pairCache.get(key);
    if (!found) {
      const fa = factsFor(a);
      const fb = factsFor(b);
      found = fa && fb ? pairConflicts(fa, fb, layerOrder) : [];
      pairCache.set(key, found);
    }
    return found;
  };

  const building = new Map<string, Building>();
  // A cached pair yields the same PairConflict objects in every variant: build
  // (and hash) each event once, not once per variant it occurs in.
  const eventOf = new Map<PairConflict, ConflictEvent>();
  const record = (c: PairConflict, v: ResolvedVariant): void => {
    let b = eventOf.get(c);
    if (!b) eventOf.set(c, (b = toEvent(c, facts, policy)));
    const existing = building.get(b.id);
    if (existing) existing.variants.add(v);
    else building.set(b.id, { event: b, variants: new Set([v]) });
  };
  const standing = new Map<string, string[]>();
  for (const v of res.variants) {
    const ids = [...new Set(v.sources.map((r) => r.id))];
    standing.set(v.id, ids);
    forPairs(ids, ids, (a, b) => pairsOf(a, b).forEach((c) => record(c, v)));
  }
  const under = variantsUnder(res.variants);
  for (const att of res.attachments) {
    const own = [...new Set(att.sources.map((r) => r.id))];
    const reached = new Set(att.globs.flatMap((g) => under(globBase(g))));
    for (const v of res.variants) {
      if (!reached.has(v)) continue;
      const ids = standing.get(v.id) ?? [];
      forPairs(own, [...own, ...ids], (a, b) => pairsOf(a, b).forEach((c) => record(c, v)));
    }
  }
  for (const { event, variants } of shadowEvents(res, factsFor, policy)) {
    building.set(event.id, { event, variants });
  }

  const events = sortEvents([...building.values()].map(({ event, variants }) => withPaths(event, variants)));
  const diagnostics = applyOverrides(events, policy.conflicts?.overrides ?? [], today);
  diagnostics.push(...events.map(diagnosticOf));
  return {
    events,
    diagnostics,
    topicsFor: (variantId) => topicsOfVariant(standing.get(variantId) ?? [], factsFor, pairsOf, (c) => toEvent(c, facts, policy)),
  };
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

function forPairs(xs: readonly string[], ys: readonly string[], f: (a: string, b: string) => void): void {
  const done = new Set<string>();
  for (const a of xs) {
    for (const b of ys) {
      if (a === b) continue;
      const key = a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`;
      if (done.has(key)) continue;
      done.add(key);
      f(a, b);
    }
  }
}

function severityOf(kind: ConflictKind, policy: Policy): ConflictEvent['severity'] {
  return policy.conflicts?.severity?.[kind] ?? DEFAULT_SEVERITY[kind];
}

export function toEvent(c: PairConflict, facts: ReadonlyMap<string, SourceFacts>, policy: Policy): ConflictEvent {
  const sides: ConflictSide[] = c.sides.map((l) => {
    const a = facts.get(l.source)?.authority;
    return sideOf(l, a?.layer ?? '', a?.scope ?? '');
  });
  const adopted = c.winner === null ? null : (c.sides[c.winner]?.source ?? null);
  const topic = c.kind === 'duplicate' ? c.topic : topicWithKey(c);
  return {
    type: 'instruction_conflict',
    id: eventId(topic, c.kind, sides),
    kind: c.kind,
    topic,
    variants: [],
    paths: { count: 0, examples: [] },
    sides,
    adopted,
    ruling: rulingText(c.kind, topic, sides, adopted, c.shared),
    reason: c.kind === 'duplicate' ? `both copies load together and cost tokens twice; ${c.reason}` : c.reason,
    severity: severityOf(c.kind, policy),
  };
}

function topicWithKey(c: PairConflict): string {
  const key = c.sides[0].finding.key;
  return key === '' ? c.topic : `${c.topic}/${key}`;
}

/** The three smallest directories of each variant, computed once per variant. */
const smallestDirs = new WeakMap<ResolvedVariant, string[]>();

function withPaths(e: ConflictEvent, variants: Set<ResolvedVariant>): ConflictEvent {
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

function shadowEvents(res: Resolution, factsFor: (id: string) => SourceFacts | null, policy: Policy): Building[] {
  const out: Building[] = [];
  for (const s of res.sources.values()) {
    if (s.file.format !== 'agents-override' || s.info.activation !== 'standing') continue;
    const shadowedId = s.file.scope === '' ? 'AGENTS.md' : `${s.file.scope}/AGENTS.md`;
    const shadowed = res.sources.get(shadowedId);
    const fo = factsFor(s.file.id);
    const fs = shadowed ? factsFor(shadowedId) : null;
    if (!shadowed || !fo || !fs) continue;
    const side = (f: SourceFacts, value: string): ConflictSide => ({ source: f.id, line: f.top.line, col: 1, layer: f.authority.layer,
      scope: f.authority.scope, rule: '*', value, excerpt: '' });
    const sides = [side(fo, 'loaded'), side(fs, 'shadowed')];
    const topic = 'agents-override';
    const event: ConflictEvent = {
      type: 'instruction_conflict', id: eventId(topic, 'shadow', sides), kind: 'shadow', topic, variants: [], paths: { count: 0, examples: [] },
      sides, adopted: fo.id, ruling: rulingText('shadow', topic, sides, fo.id),
      reason: 'AGENTS.override.md replaces AGENTS.md in the same directory (Codex semantics); none of AGENTS.md loads there',
      severity: severityOf('shadow', policy),
    };
    out.push({ event, variants: new Set(res.variants.filter((v) => v.sources.some((r) => r.id === s.file.id))) });
  }
  return out;
}
