/**
 * Which pairs of sources in one context are worth comparing: only those that
 * can disagree. Two sources can disagree on a topic and key when
 *
 * 1. one prescribes and the other forbids values that share a bucket (the
 *    topic's canonical form, or one of its buckets: a directive's verb and an
 *    object word), or
 * 2. the topic is exclusive and their sets of prescribed values differ.
 *
 * Sources that all say the same thing ("use pnpm" in every file) are never
 * paired, so the work follows the disagreements, not the square of the files;
 * and a scan's indexes hold only the keys some source contests, so what every
 * file repeats costs no variant's index anything.
 * A variant's index is built once and probed by each attachment that can
 * attach there. pairConflicts (pairs.ts) then decides each candidate exactly.
 */
import type { SourceFacts } from './facts.js';
import { topicByName, type TopicExtractor } from './topics/index.js';

interface Poles {
  pos: string[];
  neg: string[];
}

/** The speakers of a set of sources, by topic, key and bucket. */
export interface SpeakerIndex {
  poles: Map<string, Poles>;
  /** topic+key → signature of the prescribed values → sources. */
  exclusive: Map<string, Map<string, string[]>>;
}

/**
 * The keys on which some of a set of sources can disagree: a topic, key and
 * bucket that one prescribes and one forbids, an exclusive topic and key with
 * two signatures. An index built with them (speakerIndex's `only`) holds
 * nothing else, and yields the same candidate pairs: on a key nobody
 * contests, every source says the same thing. Boilerplate that a thousand
 * files repeat then costs each variant's index nothing.
 */
export interface Contested {
  poles: ReadonlySet<string>;
  exclusive: ReadonlySet<string>;
}

export function contestedKeys(ids: Iterable<string>, factsFor: (id: string) => SourceFacts | null): Contested {
  const pos = new Set<string>();
  const neg = new Set<string>();
  const firstSig = new Map<string, string>();
  const poles = new Set<string>();
  const exclusive = new Set<string>();
  const seen = new Set<string>();
  for (const id of ids) {
    const facts = seen.has(id) ? null : factsFor(id);
    seen.add(id);
    if (!facts) continue;
    const e = entriesOf(facts);
    for (const { key, negated } of e.poles) {
      (negated ? neg : pos).add(key);
      if (pos.has(key) && neg.has(key)) poles.add(key);
    }
    for (const { tk, sig } of e.exclusive) {
      const first = firstSig.get(tk);
      if (first === undefined) firstSig.set(tk, sig);
      else if (first !== sig) exclusive.add(tk);
    }
  }
  return { poles, exclusive };
}

export function speakerIndex(ids: Iterable<string>, factsFor: (id: string) => SourceFacts | null, only?: Contested): SpeakerIndex {
  const ix: SpeakerIndex = { poles: new Map(), exclusive: new Map() };
  const seen = new Set<string>();
  for (const id of ids) {
    const facts = factsFor(id);
    if (!facts || seen.has(id)) continue;
    seen.add(id);
    const { poles, exclusive } = only ? contestedEntriesOf(facts, only) : entriesOf(facts);
    for (const { key, negated } of poles) {
      let p = ix.poles.get(key);
      if (!p) ix.poles.set(key, (p = { pos: [], neg: [] }));
      const side = negated ? p.neg : p.pos;
      if (side[side.length - 1] !== id) side.push(id);
    }
    for (const { tk, sig } of exclusive) {
      let groups = ix.exclusive.get(tk);
      if (!groups) ix.exclusive.set(tk, (groups = new Map()));
      const g = groups.get(sig);
      if (g) g.push(id);
      else groups.set(sig, [id]);
    }
  }
  return ix;
}

/** What one source says, as index entries, in the order an index receives them. */
interface Entries {
  /** topic, key and bucket; whether the finding forbids. */
  poles: { key: string; negated: boolean }[];
  /** topic and key of an exclusive topic; the signature of the values the source prescribes. */
  exclusive: { tk: string; sig: string }[];
}

/**
 * A source's entries, worked out once per facts object: a root file sits in the index of every
 * variant and of every set of rules attached with it, and its buckets and keys were recomputed
 * for each (the largest single cost of pairing on a monorepo with thousands of globs).
 */
const entriesMemo = new WeakMap<SourceFacts, Entries>();

function entriesOf(facts: SourceFacts): Entries {
  let e = entriesMemo.get(facts);
  if (e) return e;
  e = { poles: [], exclusive: [] };
  for (const [topic, byKey] of facts.topics) {
    const t = topicByName(topic);
    for (const [key, list] of byKey) {
      const tk = `${topic}\u0000${key}`;
      const forms = new Set<string>();
      for (const { finding: f } of list) {
        if (!f.negated) forms.add(t?.canonical ? t.canonical(f.value) : f.value);
        for (const b of bucketsOf(t, f.value)) e.poles.push({ key: `${tk}\u0000${b}`, negated: f.negated });
      }
      if (t?.exclusive && forms.size > 0) e.exclusive.push({ tk, sig: [...forms].sort().join('\u0000') });
    }
  }
  entriesMemo.set(facts, e);
  return e;
}

/** A source's entries on contested keys only, once per facts object and contested set. */
const contestedMemo = new WeakMap<Contested, WeakMap<SourceFacts, Entries>>();

function contestedEntriesOf(facts: SourceFacts, only: Contested): Entries {
  let memo = contestedMemo.get(only);
  if (!memo) contestedMemo.set(only, (memo = new WeakMap()));
  let e = memo.get(facts);
  if (!e) {
    const all = entriesOf(facts);
    e = { poles: all.poles.filter((p) => only.poles.has(p.key)), exclusive: all.exclusive.filter((x) => only.exclusive.has(x.tk)) };
    memo.set(facts, e);
  }
  return e;
}

function bucketsOf(t: TopicExtractor | undefined, value: string): string[] {
  if (t?.canonical) return [t.canonical(value)];
  if (t?.buckets) return t.buckets(value);
  return t?.compatible ? [''] : [value];
}

/** Receives candidate pairs; returns false to stop the enumeration. */
export type PairSink = (a: string, b: string) => boolean;

/** Candidate pairs within one index. Returns false when the sink stopped it. */
export function pairsWithin(ix: SpeakerIndex, sink: PairSink): boolean {
  for (const p of ix.poles.values()) {
    if (p.neg.length === 0 || p.pos.length === 0) continue;
    for (const a of p.pos) for (const b of p.neg) if (a !== b && !sink(a, b)) return false;
  }
  for (const groups of ix.exclusive.values()) {
    if (groups.size < 2) continue;
    const list = [...groups.values()];
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) {
        for (const a of list[i] as string[]) for (const b of list[j] as string[]) if (a !== b && !sink(a, b)) return false;
      }
    }
  }
  return true;
}

/** Candidate pairs with one source in `own` and the other in `other`. Returns false when the sink stopped it. */
export function pairsAcross(own: SpeakerIndex, other: SpeakerIndex, sink: PairSink): boolean {
  for (const [k, p] of own.poles) {
    const q = other.poles.get(k);
    if (!q) continue;
    for (const a of p.pos) for (const b of q.neg) if (a !== b && !sink(a, b)) return false;
    for (const a of p.neg) for (const b of q.pos) if (a !== b && !sink(a, b)) return false;
  }
  for (const [tk, mine] of own.exclusive) {
    const theirs = other.exclusive.get(tk);
    if (!theirs) continue;
    for (const [sa, as] of mine) {
      for (const [sb, bs] of theirs) {
        if (sa === sb) continue;
        for (const a of as) for (const b of bs) if (a !== b && !sink(a, b)) return false;
      }
    }
  }
  return true;
}
