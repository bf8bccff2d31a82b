/**
 * Whether some agent reads two copies of a statement in one context: the
 * summary of a context's copies (Mix) and the two ways duplicates.ts asks it.
 * Two copies are the multi-agent pattern, not a duplicate, only when they
 * share layer and scope and are written for two different agents (AGENTS.md
 * beside CLAUDE.md); any other pair is a duplicate that some agent reads twice.
 */
import type { SourceFacts, StatementFact } from './facts.js';

export interface Copy {
  facts: SourceFacts;
  statement: StatementFact;
}

/** What decides a context's kind: its copy count, up to two distinct layer+scope keys, the agents its copies are for. */
export interface Mix {
  n: number;
  keys: string[];
  families: Set<string>;
  dup: boolean;
}

/** A context's summary with `extra` copies added (`base` is not changed). */
export function extendMix(base: Mix | undefined, extra: readonly Copy[]): Mix {
  const m: Mix = base ? { n: base.n, keys: [...base.keys], families: new Set(base.families), dup: base.dup } : { n: 0, keys: [], families: new Set(), dup: false };
  for (const c of extra) {
    const a = c.facts.authority;
    const key = `${a.layer}\u0000${a.scope}`;
    const family = c.facts.family;
    if (makesDuplicate(m.n, m.keys, (f) => m.families.has(f), key, family)) m.dup = true;
    if (!m.keys.includes(key) && m.keys.length < 2) m.keys.push(key);
    m.families.add(family);
    m.n++;
  }
  return m;
}

/**
 * Whether extendMix(base, extra) is a duplicate, without building the mix: the
 * attachment loop asks this for every variant each attachment with a copy
 * reaches.
 */
export function extendsToDuplicate(base: Mix | undefined, extra: readonly Copy[]): boolean {
  if (base?.dup) return true;
  let n = base?.n ?? 0;
  const keys = base ? [...base.keys] : [];
  const families: string[] = [];
  const has = (f: string): boolean => (base?.families.has(f) ?? false) || families.includes(f);
  for (const c of extra) {
    const a = c.facts.authority;
    const key = `${a.layer}\u0000${a.scope}`;
    const family = c.facts.family;
    if (makesDuplicate(n, keys, has, key, family)) return true;
    if (!keys.includes(key) && keys.length < 2) keys.push(key);
    if (!has(family)) families.push(family);
    n++;
  }
  return false;
}

/** Whether a copy (its layer+scope `key`, its agents `family`) joining `n` copies of `keys` and the agents `has` says makes them a duplicate. */
function makesDuplicate(n: number, keys: readonly string[], has: (family: string) => boolean, key: string, family: string): boolean {
  return n > 0 && (keys.some((k) => k !== key) || family === '*' || has('*') || has(family));
}
