/**
 * Disagreements between two sources, topic by topic.
 *
 * 1. Two findings are compared only when they share a topic and a key.
 * 2. Opposite polarity on a compatible value is a conflict: "use npm" against
 *    "do not use npm", "never log request bodies" against "log the body".
 * 3. On an exclusive topic, two positive values conflict only when neither
 *    source also prescribes a value compatible with the other's: a file that
 *    names pnpm and npm agrees with a file that names npm.
 * 4. Findings of one source never conflict with each other: one author wrote
 *    them, usually with a qualifier rulec cannot see.
 * 5. Two sources share duplicated text when a long normalised statement
 *    appears in both (a symlink and its target are one file). Files at the
 *    same scope and layer written for different agents (CLAUDE.md beside
 *    AGENTS.md or a Cursor rule) are the multi-agent pattern, not waste: no
 *    single agent reads both, so they are not reported.
 */
import type { Located, SourceFacts } from './facts.js';
import { rule, type Ruling } from './cascade.js';
import type { Layer } from '../types.js';
import { topicByName } from './topics/index.js';

export interface PairConflict {
  topic: string;
  kind: Ruling['kind'] | 'duplicate';
  /** Sides in source-id order. */
  sides: [Located, Located];
  winner: 0 | 1 | null;
  reason: string;
  /** Duplicates: how many statements the two share. */
  shared?: number;
}

export function pairConflicts(a: SourceFacts, b: SourceFacts, layerOrder: readonly Layer[]): PairConflict[] {
  if (a.real === b.real) return [];
  const [x, y] = a.id < b.id ? [a, b] : [b, a];
  const ruling = rule(x.authority, y.authority, layerOrder);
  const out: PairConflict[] = [];
  for (const [topic, xs] of x.byTopic) {
    const ys = y.byTopic.get(topic);
    if (!ys) continue;
    const seen = new Set<string>();
    for (const [fx, fy] of conflictingPairs(topic, xs, ys)) {
      const sig = JSON.stringify([fx.finding.key, fx.finding.value, fx.finding.negated, fy.finding.value, fy.finding.negated]);
      if (seen.has(sig)) continue;
      seen.add(sig);
      out.push({ topic, kind: ruling.kind, sides: [fx, fy], winner: ruling.winner, reason: ruling.reason });
    }
  }
  const dup = duplicateOf(x, y);
  if (dup) out.push({ ...dup, ...copyToKeep(x, y, layerOrder) });
  return out;
}

function conflictingPairs(topic: string, xs: Located[], ys: Located[]): [Located, Located][] {
  const t = topicByName(topic);
  const compatible = t?.compatible ?? ((p: string, q: string) => p === q);
  const exclusive = t?.exclusive ?? false;
  const prescribes = (list: Located[], key: string, value: string): boolean =>
    list.some((l) => !l.finding.negated && l.finding.key === key && compatible(l.finding.value, value));
  // Without exclusivity only compatible values of opposite polarity conflict, and
  // compatible values share a bucket: compare each finding with its bucket only.
  const bucketOf = t?.bucket ?? (t?.compatible ? null : (v: string) => v);
  const candidates = !exclusive && bucketOf ? bucketed(ys, bucketOf) : null;
  const out: [Located, Located][] = [];
  for (const fx of xs) {
    const p = fx.finding;
    const others = candidates ? candidates.get(`${p.key}\u0000${bucketOf?.(p.value)}`) ?? [] : ys;
    for (const fy of others) {
      const q = fy.finding;
      if (p.key !== q.key) continue;
      const same = compatible(p.value, q.value);
      if (p.negated !== q.negated) {
        if (same) out.push([fx, fy]);
      } else if (!p.negated && exclusive && !same && !prescribes(xs, q.key, q.value) && !prescribes(ys, p.key, p.value)) {
        out.push([fx, fy]);
      }
    }
  }
  return out;
}

function bucketed(list: Located[], bucketOf: (value: string) => string): Map<string, Located[]> {
  const map = new Map<string, Located[]>();
  for (const l of list) {
    const k = `${l.finding.key}\u0000${bucketOf(l.finding.value)}`;
    const b = map.get(k);
    if (b) b.push(l);
    else map.set(k, [l]);
  }
  return map;
}

function duplicateOf(x: SourceFacts, y: SourceFacts): Omit<PairConflict, 'winner' | 'reason'> | null {
  const a = x.authority;
  const b = y.authority;
  const forOtherAgents = a.layer === b.layer && a.scope === b.scope && x.family !== y.family && x.family !== '*' && y.family !== '*';
  if (forOtherAgents) return null;
  let first: [Located, Located] | null = null;
  let shared = 0;
  for (const [text, lx] of x.statements) {
    const ly = y.statements.get(text);
    if (!ly) continue;
    shared++;
    if (!first) first = [lx, ly];
  }
  return first ? { topic: 'duplicate-text', kind: 'duplicate', sides: first, shared } : null;
}

/** Of two duplicated copies keep the broader one: it already reaches every path the narrower copy does. */
function copyToKeep(x: SourceFacts, y: SourceFacts, layerOrder: readonly Layer[]): { winner: 0 | 1; reason: string } {
  const a = x.authority;
  const b = y.authority;
  if (a.specificity !== b.specificity) {
    const w: 0 | 1 = a.specificity < b.specificity ? 0 : 1;
    return { winner: w, reason: `${(w === 0 ? a : b).source} has the broader scope and already reaches every path the other copy does` };
  }
  const ra = layerOrder.indexOf(a.layer);
  const rb = layerOrder.indexOf(b.layer);
  const w: 0 | 1 = rb < ra ? 1 : 0;
  return { winner: w, reason: ra === rb ? 'same scope and layer: either copy can go' : `same scope; ${(w === 0 ? a : b).layer} comes first in the layer order` };
}
