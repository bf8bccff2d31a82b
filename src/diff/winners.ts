/**
 * Which rule decides each topic for a variant, on one side — the conflict
 * module's own cascade (pairConflicts, topicsOfVariant), run over the sources
 * rebuilt from the view. Pair results are cached per side, as in a build.
 */
import { DEFAULT_LAYER_ORDER } from '../conflicts/cascade.js';
import { pairEvent } from '../conflicts/records.js';
import type { SourceFacts } from '../conflicts/facts.js';
import { pairConflicts, type PairConflict } from '../conflicts/pairs.js';
import { topicsOfVariant } from '../conflicts/topics-for.js';
import type { Policy } from '../config/policy.js';
import type { ManifestVariant } from '../bundle/model.js';
import type { Layer } from '../types.js';
import type { SourceModel } from './source-model.js';
import type { TopicWinner } from './path-group.js';

/**
 * Topics left out: duplicates and shadowing are findings about files, and a
 * free-text directive only has a "winner" while it conflicts — both are
 * reported as conflict events instead.
 */
const NOT_PRESCRIPTIONS = new Set(['duplicate-text', 'agents-override', 'directive']);

export type WinnersOf = (variantId: string, variant: ManifestVariant) => Map<string, TopicWinner>;

export function winnersOf(model: SourceModel, layerOrder: readonly Layer[] = DEFAULT_LAYER_ORDER): WinnersOf {
  const facts = new Map<string, SourceFacts>();
  const factsFor = (id: string): SourceFacts | null => {
    let f = facts.get(id);
    if (!f) {
      const s = model.source(id);
      if (!s) return null;
      facts.set(id, (f = s.facts));
    }
    return f;
  };
  const pairs = new Map<string, PairConflict[]>();
  const pairsOf = (a: string, b: string): PairConflict[] => {
    const key = a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`;
    let found = pairs.get(key);
    if (!found) {
      const fa = factsFor(a);
      const fb = factsFor(b);
      pairs.set(key, (found = fa && fb ? pairConflicts(fa, fb, layerOrder) : []));
    }
    return found;
  };
  // pairEvent reads only the policy's conflict settings (severities); winners do not depend on them.
  const policy = { conflicts: { layer_order: [...layerOrder] } } as Pick<Policy, 'conflicts'> as Policy;
  const memo = new Map<string, Map<string, TopicWinner>>();
  return (variantId, variant) => {
    let out = memo.get(variantId);
    if (out) return out;
    out = new Map();
    const ids = [...new Set(variant.sources.map((r) => r.id))];
    for (const t of topicsOfVariant(ids, factsFor, pairsOf, (c) => pairEvent(c, factsFor, policy), layerOrder)) {
      if (NOT_PRESCRIPTIONS.has(t.topic.split('/')[0] as string) || out.has(t.topic)) continue;
      const decided = !t.reason.startsWith('no winner');
      out.set(t.topic, { value: t.winner.value, source: t.winner.source, rule: t.winner.rule, line: t.winner.line, decided });
    }
    memo.set(variantId, out);
    return out;
  };
}
