/**
 * topicsFor(resolution, policy, variant): for each topic the standing sources
 * of a variant speak to, which rule wins there and why. A pure function of the
 * resolution, so a compile result stays plain data; topicsOfVariant() is the
 * same ruling over facts a caller already holds (diff/winners.ts).
 *
 * 1. Group the sources' findings by topic (and key); directives appear only
 *    when they conflict.
 * 2. A topic with conflicts reports the adopted side as winner, the sides it
 *    beat as losers, and the cascade's reason; a contradiction has no winner
 *    and lists the first side as "winner" with a reason that says so.
 * 3. A topic without conflicts reports the most authoritative source that
 *    speaks to it (enforced, then most specific, then the policy's layer
 *    order, then render order).
 */
import type { Layer } from '../types.js';
import type { Policy } from '../config/policy.js';
import type { Resolution } from '../resolve/resolve.js';
import { compareCodeUnits } from '../util/compare.js';
import { DEFAULT_LAYER_ORDER } from './cascade.js';
import type { ConflictEvent, ConflictSide } from './events.js';
import { sideOf } from './events.js';
import { DEFAULT_FINDINGS_PER_TOPIC, factsOf, StatementAnalyses, type Located, type SourceFacts } from './facts.js';
import { pairConflicts, type PairConflict } from './pairs.js';
import { pairEvent } from './records.js';
import { pairsWithin, speakerIndex } from './speakers.js';

export interface TopicRuling {
  topic: string;
  winner: ConflictSide;
  losers: ConflictSide[];
  reason: string;
}

const ONLY_WHEN_CONFLICTING = new Set(['directive']);

/** The topic rulings of variant `variantId` of `res` under `policy` ([] for a variant it does not have). */
export function topicsFor(res: Resolution, policy: Policy, variantId: string): TopicRuling[] {
  const variant = res.variants.find((v) => v.id === variantId);
  if (!variant) return [];
  const layerOrder = policy.conflicts?.layer_order ?? DEFAULT_LAYER_ORDER;
  const limit = policy.conflicts?.limits?.findings_per_topic ?? DEFAULT_FINDINGS_PER_TOPIC;
  const facts = new Map<string, SourceFacts | null>();
  const analyses = new StatementAnalyses();
  const factsFor = (id: string): SourceFacts | null => {
    if (!facts.has(id)) {
      const s = res.sources.get(id);
      facts.set(id, s ? factsOf(s, limit, analyses) : null);
    }
    return facts.get(id) ?? null;
  };
  const pairsOf = (a: string, b: string): PairConflict[] => {
    const fa = factsFor(a);
    const fb = factsFor(b);
    return fa && fb ? pairConflicts(fa, fb, layerOrder) : [];
  };
  return topicsOfVariant([...new Set(variant.sources.map((r) => r.id))], factsFor, pairsOf, (c) => pairEvent(c, factsFor, policy), layerOrder);
}

export function topicsOfVariant(ids: readonly string[], factsFor: (id: string) => SourceFacts | null,
  pairsOf: (a: string, b: string) => PairConflict[], toEvent: (c: PairConflict) => ConflictEvent,
  layerOrder: readonly Layer[] = DEFAULT_LAYER_ORDER): TopicRuling[] {
  const facts = ids.map(factsFor).filter((f): f is SourceFacts => f !== null);
  const out = new Map<string, TopicRuling>();
  // Conflicts first: they decide the winner of their topic. Only pairs that can
  // disagree are compared, in the order of the variant's sources.
  const order = new Map(facts.map((f, i) => [f.id, i]));
  const pairs: [number, number][] = [];
  const seen = new Set<number>();
  pairsWithin(speakerIndex(ids, factsFor), (a, b) => {
    const [i, j] = [order.get(a) as number, order.get(b) as number];
    const pair: [number, number] = i < j ? [i, j] : [j, i];
    if (!seen.has(pair[0] * facts.length + pair[1])) seen.add(pair[0] * facts.length + pair[1]), pairs.push(pair);
    return true;
  });
  pairs.sort((p, q) => p[0] - q[0] || p[1] - q[1]);
  for (const [i, j] of pairs) {
    for (const c of pairsOf((facts[i] as SourceFacts).id, (facts[j] as SourceFacts).id)) {
      const e = toEvent(c);
      const key = `${e.topic}\u0000${c.topic === 'directive' ? e.id : ''}`;
      const winner = e.sides.find((s) => s.source === e.adopted) ?? (e.sides[0] as ConflictSide);
      const losers = e.sides.filter((s) => s.source !== winner.source);
      const prev = out.get(key);
      if (!prev) {
        out.set(key, { topic: e.topic, winner, losers, reason: e.adopted === null ? `no winner: ${e.reason}` : e.reason });
      } else if (prev.winner.source === winner.source) {
        for (const l of losers) if (!prev.losers.some((p) => p.source === l.source)) prev.losers.push(l);
      }
    }
  }
  for (const [topic, list] of groupFindings(facts)) {
    if (ONLY_WHEN_CONFLICTING.has(topic.split('/')[0] as string) || out.has(`${topic}\u0000`)) continue;
    const bySource = new Map<string, Located>();
    for (const l of list) if (!bySource.has(l.source)) bySource.set(l.source, l);
    const ranked = [...bySource.values()].sort((a, b) => rank(facts, b.source, layerOrder) - rank(facts, a.source, layerOrder));
    const top = ranked[0] as Located;
    const f = facts.find((x) => x.id === top.source) as SourceFacts;
    const n = bySource.size;
    out.set(`${topic}\u0000`, {
      topic,
      winner: sideOf(top, f.authority.layer, f.authority.scope),
      losers: [],
      reason: n === 1 ? 'the only source here that speaks to this topic' : `${n} sources agree; ${top.source} is the most authoritative of them`,
    });
  }
  return [...out.values()].sort((a, b) => compareCodeUnits(a.topic, b.topic) || compareCodeUnits(a.winner.source, b.winner.source));
}

function groupFindings(facts: readonly SourceFacts[]): Map<string, Located[]> {
  const groups = new Map<string, Located[]>();
  for (const f of facts) {
    for (const [topic, byKey] of f.topics) {
      for (const l of [...byKey.values()].flat()) {
        if (l.finding.negated || l.finding.refines) continue;
        const key = l.finding.key === '' ? topic : `${topic}/${l.finding.key}`;
        const g = groups.get(key) ?? [];
        g.push(l);
        groups.set(key, g);
      }
    }
  }
  return groups;
}

/** Higher is stronger: enforced first, then specificity, then layer order, then later in render order. */
function rank(facts: readonly SourceFacts[], id: string, layerOrder: readonly Layer[]): number {
  const i = facts.findIndex((f) => f.id === id);
  const a = (facts[i] as SourceFacts).authority;
  return (a.enforced ? 1e6 : 0) + a.specificity * 1e3 - layerOrder.indexOf(a.layer) * 10 + i * 0.001;
}
