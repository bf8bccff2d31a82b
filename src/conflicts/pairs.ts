/**
 * Disagreements between two sources, topic by topic.
 *
 * 1. Two findings are compared only when they share a topic and a key, and
 *    each source contributes each distinct value once (facts.ts).
 * 2. Opposite polarity on a compatible value is a conflict: "use npm" against
 *    "do not use npm", "never log request bodies" against "log the body".
 * 3. On an exclusive topic, two positive values conflict only when neither
 *    source also prescribes a value compatible with the other's: a file that
 *    names pnpm and npm agrees with a file that names npm.
 * 4. Findings of one source never conflict with each other: one author wrote
 *    them, usually with a qualifier rulec cannot see.
 * 5. A narrower file that prescribes what a broader one forbids ("Do NOT
 *    update rules/ unless asked" at the root, "Update rules/ when the SDK
 *    changes" in a package) lifts a guard: for the agent that loads both it is
 *    a contradiction, not a refinement. The reverse — a narrower file that
 *    forbids, for its subtree, what the broader one prescribes ("do not use
 *    `zig build`" for the macOS app) — stays an override, and so does a
 *    narrower file that prescribes what a broader one only waives ("there is
 *    no need to add change logs"): it adds an obligation, it lifts no guard.
 * 6. Refinements (keyed copies of unkeyed findings: package-manager's tool
 *    for one step) are compared only when the unkeyed findings agree.
 * 7. A presumed finding ("when adding a dependency, add it to …" presumes the
 *    agent adds one) counts only on the losing side of an override: a narrower
 *    or higher-ranked file restricts what the other takes for granted. Against
 *    a restriction at the same rank both can be followed, so it is left out.
 * 8. What is one disagreement is one result: the conflicting findings of a
 *    topic and key form a graph, and each connected part of it (npm against
 *    yarn and bun; k test commands against k others) is one PairConflict
 *    listing every finding in it — never one per pair of findings.
 *
 * Lookups are by hash (a topic's canonical form) or by bucket, so the work is
 * linear in the findings for every topic but those whose compatibility is
 * neither (runtime versions), which compare within one key only.
 * A symlink and its target are one file and never conflict.
 */
import type { Located, SourceFacts } from './facts.js';
import { rule, type Ruling } from './cascade.js';
import type { Layer } from '../types.js';
import { topicByName, type TopicExtractor } from './topics/index.js';

export interface PairConflict {
  topic: string;
  kind: Ruling['kind'];
  /** Every finding of the disagreement, in (source id, line, col) order. */
  sides: Located[];
  /** Source id of the side the cascade adopts, or null. */
  adopted: string | null;
  reason: string;
}

export function pairConflicts(a: SourceFacts, b: SourceFacts, layerOrder: readonly Layer[]): PairConflict[] {
  if (a.real === b.real) return [];
  const [x, y] = a.id < b.id ? [a, b] : [b, a];
  let ruling: Ruling | null = null;
  const rulingOf = (): Ruling => (ruling ??= rule(x.authority, y.authority, layerOrder));
  const usable = usableFindings(x, y, rulingOf);
  const out: PairConflict[] = [];
  for (const [topic, xKeys] of x.topics) {
    const yKeys = y.topics.get(topic);
    if (!yKeys) continue;
    const t = topicByName(topic);
    let general: Located[][] | null = null;
    const generalOf = (): Located[][] => (general ??= disagreements(t, usable(xKeys.get('') ?? []), usable(yKeys.get('') ?? [])));
    for (const [key, xs] of xKeys) {
      const ys = yKeys.get(key);
      if (!ys || (key !== '' && refinesOnly(xs, ys) && generalOf().length > 0)) continue;
      for (const sides of key === '' ? generalOf() : disagreements(t, usable(xs), usable(ys))) {
        const r = rulingOf();
        const adopted = winnerOf(r, x, y);
        if (r.kind === 'override' && adopted !== null && x.authority.specificity !== y.authority.specificity && liftsGuard(sides, adopted)) {
          const loser = adopted === x.id ? y.id : x.id;
          out.push({ topic, kind: 'contradiction', sides, adopted: null,
            reason: `${loser} forbids what ${adopted} prescribes; an agent that loads both is told both` });
        } else out.push({ topic, kind: r.kind, sides, adopted, reason: r.reason });
      }
    }
  }
  return out;
}

/** Every finding of both lists is a refinement (a keyed copy of an unkeyed finding). */
function refinesOnly(xs: readonly Located[], ys: readonly Located[]): boolean {
  return xs.every((l) => l.finding.refines) && ys.every((l) => l.finding.refines);
}

/** The id of the source a ruling adopts between x and y, or null when it adopts neither. */
function winnerOf(r: Ruling, x: SourceFacts, y: SourceFacts): string | null {
  return r.winner === null ? null : (r.winner === 0 ? x : y).id;
}

/** The winner only prescribes and the loser only forbids (a waiver alone guards nothing). */
function liftsGuard(sides: readonly Located[], winner: string): boolean {
  return sides.every((s) => s.finding.negated === (s.source !== winner)) && sides.some((s) => s.source !== winner && !s.finding.waiver);
}

/**
 * The findings of a list that may take part in this pair's disagreements: a presumed finding
 * only when the cascade rules an override and its source loses it (step 7). Lists without a
 * presumed finding (all but a few) are returned as they are, and the ruling is not asked.
 */
function usableFindings(x: SourceFacts, y: SourceFacts, rulingOf: () => Ruling): (list: Located[]) => Located[] {
  return (list) => {
    if (!list.some((l) => l.finding.presumed)) return list;
    const r = rulingOf();
    const winner = winnerOf(r, x, y);
    if (r.kind === 'override' && winner !== null && list[0]?.source !== winner) return list;
    return list.filter((l) => !l.finding.presumed);
  };
}

/** The connected parts of the conflict graph between xs and ys (one topic, one key), each as its sorted findings. */
function disagreements(t: TopicExtractor | undefined, xs: Located[], ys: Located[]): Located[][] {
  const parent = Array.from({ length: xs.length + ys.length }, (_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i] as number] as number;
    return i;
  };
  const linked = new Set<number>();
  const link = (i: number, j: number): void => {
    linked.add(i).add(xs.length + j);
    const [ri, rj] = [find(i), find(xs.length + j)];
    if (ri !== rj) parent[ri] = rj;
  };
  // An edge between two findings already in one part changes nothing: skip its (costly) test.
  // When most findings disagree with most others, this keeps the tests near-linear.
  const joined = (i: number, j: number): boolean => find(i) === find(xs.length + j);
  polarityEdges(t, xs, ys, link, joined);
  if (t?.exclusive) exclusiveEdges(t, xs, ys, link, joined);
  if (linked.size === 0) return [];
  const parts = new Map<number, Located[]>();
  for (const i of [...linked].sort((p, q) => p - q)) {
    const r = find(i);
    const l = i < xs.length ? (xs[i] as Located) : (ys[i - xs.length] as Located);
    const part = parts.get(r);
    if (part) part.push(l);
    else parts.set(r, [l]);
  }
  return [...parts.values()];
}

type Link = (i: number, j: number) => void;
type Joined = (i: number, j: number) => boolean;

/** Opposite polarity on compatible values. */
function polarityEdges(t: TopicExtractor | undefined, xs: Located[], ys: Located[], link: Link, joined: Joined): void {
  const compatible = t?.compatible ?? ((p: string, q: string) => p === q);
  const canonical = t?.canonical ?? (t?.compatible ? null : (v: string) => v);
  if (canonical) {
    const byForm = indexBy(ys, (v) => [canonical(v)]);
    xs.forEach((fx, i) => {
      for (const j of byForm.get(canonical(fx.finding.value)) ?? []) if ((ys[j] as Located).finding.negated !== fx.finding.negated) link(i, j);
    });
    return;
  }
  const bucketsOf = t?.buckets ?? (() => ['']);
  const byBucket = indexBy(ys, bucketsOf);
  xs.forEach((fx, i) => {
    const p = fx.finding;
    for (const b of new Set(bucketsOf(p.value))) {
      for (const j of byBucket.get(b) ?? []) {
        const q = (ys[j] as Located).finding;
        if (q.negated !== p.negated && !joined(i, j) && compatible(p.value, q.value)) link(i, j);
      }
    }
  });
}

/**
 * Two positive, incompatible values where neither source also prescribes a
 * value compatible with the other's. With a canonical form the qualifying
 * values of each side all conflict with each other: one disagreement.
 */
function exclusiveEdges(t: TopicExtractor, xs: Located[], ys: Located[], link: Link, joined: Joined): void {
  const compatible = t.compatible ?? ((p: string, q: string) => p === q);
  const canonical = t.canonical ?? (t.compatible ? null : (v: string) => v);
  const positive = (list: Located[]): number[] => list.flatMap((l, i) => (l.finding.negated ? [] : [i]));
  const px = positive(xs);
  const py = positive(ys);
  if (px.length === 0 || py.length === 0) return;
  const value = (list: Located[], i: number): string => (list[i] as Located).finding.value;
  if (canonical) {
    const formsX = new Set(px.map((i) => canonical(value(xs, i))));
    const formsY = new Set(py.map((j) => canonical(value(ys, j))));
    const qx = px.filter((i) => !formsY.has(canonical(value(xs, i))));
    const qy = py.filter((j) => !formsX.has(canonical(value(ys, j))));
    if (qx.length === 0 || qy.length === 0) return;
    for (const i of qx) link(i, qy[0] as number);
    for (const j of qy) link(qx[0] as number, j);
    return;
  }
  // No canonical form (version ranges): compare within this key, at most limit² cheap pairs.
  const prescribedBy = (list: Located[], own: number[], v: string): boolean => own.some((k) => compatible(value(list, k), v));
  const qx = px.filter((i) => !prescribedBy(ys, py, value(xs, i)));
  const qy = py.filter((j) => !prescribedBy(xs, px, value(ys, j)));
  for (const i of qx) for (const j of qy) if (!joined(i, j) && !compatible(value(xs, i), value(ys, j))) link(i, j);
}

function indexBy(list: Located[], keysOf: (value: string) => string[]): Map<string, number[]> {
  const map = new Map<string, number[]>();
  list.forEach((l, i) => {
    for (const k of new Set(keysOf(l.finding.value))) {
      const bucket = map.get(k);
      if (bucket) bucket.push(i);
      else map.set(k, [i]);
    }
  });
  return map;
}
