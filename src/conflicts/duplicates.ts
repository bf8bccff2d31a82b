/**
 * Duplicated text, one group per statement.
 *
 * 1. Index every long statement of every source that loads somewhere by its
 *    normalised text (facts.ts: case, punctuation, emphasis, whitespace and a
 *    trailing parenthesis ignored), by that text without filler words
 *    ("always", "any") and by the head and remark a spaced dash splits it
 *    into, when each is a statement of its own (facts.ts statementParts); one
 *    copy per real file (a symlink and its target are one file).
 * 2. For a statement with copies in two or more files, find the contexts in
 *    which several copies load together (reach.ts): a variant's standing
 *    sources, a variant's standing sources plus one attachment that can attach
 *    there (or one agent-requested rule of its directory), or attachments of
 *    one family that some path loads together (there, only copies in a copied
 *    block of statements count). The work is the variants,
 *    attachment reach and co-attached sets of each copy's file — linear in
 *    the copies, never in pairs of them.
 * 3. A context is a duplicate when some agent reads two of its copies: two
 *    copies at different scopes or layers, two for the same agent, or one in a
 *    file every agent reads (managed, imported). Copies that only meet a copy
 *    written for another agent at the same scope and layer (AGENTS.md beside
 *    CLAUDE.md, a Cursor rule) are the multi-agent pattern: kind `copy`; so
 *    are copies in an agent-requested rule, which loads only when asked for.
 * 4. One group per statement: the copies and variants of its duplicate
 *    contexts (or, when there are none, of its copy contexts), the most copies
 *    one context loads, and the copy to keep — the one that loads on the most
 *    paths, then the broadest scope, the layer order, the source id.
 */
import type { Layer } from '../types.js';
import type { Resolution, ResolvedVariant } from '../resolve/resolve.js';
import { compareCodeUnits } from '../util/compare.js';
import type { SourceFacts } from './facts.js';
import { extendMix, extendsToDuplicate, type Copy, type Mix } from './copy-mix.js';
import type { AttachmentReach, Reach } from './reach.js';

export type { Copy } from './copy-mix.js';

export interface DuplicateGroup {
  kind: 'duplicate' | 'copy';
  /** The normalised statement. */
  text: string;
  /** Copies in source-id order. */
  copies: Copy[];
  variants: ResolvedVariant[];
  /** The most copies one context loads. */
  together: number;
  /** The copy to keep (duplicates only). */
  keep: Copy | null;
}

interface Where {
  variants: readonly ResolvedVariant[];
  reach: readonly AttachmentReach[];
  together: Reach['together'];
  /** Attachment index → indices of the co-attached sets it belongs to. */
  setsOf: Map<number, number[]>;
  /** Real file → indices of the variants it stands in / the attachments it belongs to. */
  variantsOf: Map<string, number[]>;
  attachmentsOf: Map<string, number[]>;
  /** By variant index, one statement at a time: its standing copies, their mix, their real files. */
  scratch: { standing: (Copy[] | undefined)[]; mixes: (Mix | undefined)[]; reals: (Set<string> | undefined)[] };
}

export function duplicateGroups(res: Resolution, { list: reach, together }: Reach, factsFor: (id: string) => SourceFacts | null,
  layerOrder: readonly Layer[]): DuplicateGroup[] {
  const scratch = { standing: new Array(res.variants.length), mixes: new Array(res.variants.length), reals: new Array(res.variants.length) };
  const where: Where = { variants: res.variants, reach, together, setsOf: new Map(), variantsOf: new Map(), attachmentsOf: new Map(), scratch };
  together.forEach((t, ti) => t.members.forEach((ai) => add(where.setsOf, ai, ti)));
  const ids = new Set<string>();
  const note = (map: Map<string, number[]>, id: string, i: number): void => {
    const f = factsFor(id);
    if (!f) return;
    ids.add(id);
    const list = map.get(f.real);
    if (!list) map.set(f.real, [i]);
    else if (list[list.length - 1] !== i) list.push(i);
  };
  res.variants.forEach((v, vi) => v.sources.forEach((r) => note(where.variantsOf, r.id, vi)));
  reach.forEach((a, ai) => a.own.forEach((id) => note(where.attachmentsOf, id, ai)));

  const texts = new Map<string, Map<string, Copy>>();
  for (const id of [...ids].sort(compareCodeUnits)) {
    const f = factsFor(id) as SourceFacts;
    for (const [text, statement] of f.statements) {
      let byReal = texts.get(text);
      if (!byReal) texts.set(text, (byReal = new Map()));
      const prev = byReal.get(f.real);
      // Name a symlinked file by its target.
      if (!prev || (prev.facts.id !== f.real && f.id === f.real)) byReal.set(f.real, { facts: f, statement });
    }
  }

  const paths = pathsLoaded(where);
  const out: DuplicateGroup[] = [];
  for (const [text, byReal] of texts) {
    if (byReal.size < 2) continue;
    const copies = [...byReal.values()];
    // A part (head, remark, filler-free text) whose copies all share one whole text repeats the whole text's group.
    const full = copies[0]?.statement.full;
    if (full !== text && copies.every((c) => c.statement.full === full)) continue;
    const group = groupOf(text, copies, where);
    if (!group) continue;
    if (group.kind === 'duplicate') group.keep = broadest(group.copies, paths, layerOrder);
    out.push(group);
  }
  return out;
}

function groupOf(text: string, copies: Copy[], where: Where): DuplicateGroup | null {
  const holding: number[] = [];
  try {
    return groupHolding(text, copies, where, holding);
  } finally {
    // Only what this statement set: clearing whole arrays would cost every statement every variant.
    const { standing, mixes, reals } = where.scratch;
    for (const vi of holding) standing[vi] = mixes[vi] = reals[vi] = undefined;
  }
}

/** groupOf's work; `holding` receives the variants whose scratch entries it sets. */
function groupHolding(text: string, copies: Copy[], where: Where, holding: number[]): DuplicateGroup | null {
  // By variant index, in arrays allocated once per scan: the attachment loop below looks each reached variant up.
  const { standing, mixes, reals } = where.scratch;
  const attached = new Map<number, Copy[]>();
  for (const c of copies) {
    for (const vi of where.variantsOf.get(c.facts.real) ?? []) {
      const list = standing[vi];
      if (list) list.push(c);
      else {
        standing[vi] = [c];
        holding.push(vi);
      }
    }
    for (const ai of where.attachmentsOf.get(c.facts.real) ?? []) add(attached, ai, c);
  }
  const found = { duplicate: new Found(), copy: new Found() };
  for (const vi of holding) {
    const list = standing[vi] as Copy[];
    const mix = extendMix(undefined, list);
    mixes[vi] = mix;
    if (mix.n >= 2) found[mix.dup ? 'duplicate' : 'copy'].add(vi, list, [], mix.n);
  }
  for (const [ai, list] of attached) {
    const a = where.reach[ai] as AttachmentReach;
    for (const vi of a.reached) {
      const own = standing[vi];
      let extra: readonly Copy[] = list;
      if (own !== undefined) {
        const inside = (reals[vi] ??= new Set(own.map((c) => c.facts.real)));
        extra = list.length === 1 ? (inside.has((list[0] as Copy).facts.real) ? NONE : list) : list.filter((c) => !inside.has(c.facts.real));
      }
      if (extra.length === 0) continue;
      const base = mixes[vi];
      const n = (base?.n ?? 0) + extra.length;
      if (n >= 2) found[extendsToDuplicate(base, extra) && !a.requested ? 'duplicate' : 'copy'].add(vi, own ?? NONE, extra, n);
    }
  }
  for (const [ti, list] of togetherCopies(attached, where)) {
    if (list.length < 2 || !inCopiedBlock(list)) continue;
    const kind = extendsToDuplicate(undefined, list) ? 'duplicate' : 'copy';
    for (const vi of (where.together[ti] as Reach['together'][number]).variants) found[kind].add(vi, [], list, list.length);
  }
  const f = found.duplicate.variants.size > 0 ? found.duplicate : found.copy;
  if (f.variants.size === 0) return null;
  return {
    kind: f === found.duplicate ? 'duplicate' : 'copy',
    text,
    copies: [...f.copies].sort((a, b) => compareCodeUnits(a.facts.id, b.facts.id)),
    variants: [...f.variants].map((vi) => where.variants[vi] as ResolvedVariant),
    together: f.together,
    keep: null,
  };
}

const NONE: readonly Copy[] = [];

/** Per co-attached set that holds copies, its copies (one per real file). */
function togetherCopies(attached: ReadonlyMap<number, Copy[]>, where: Where): Map<number, Copy[]> {
  const out = new Map<number, Copy[]>();
  const reals = new Map<number, Set<string>>();
  for (const [ai, list] of attached) {
    for (const ti of where.setsOf.get(ai) ?? []) {
      let seen = reals.get(ti);
      if (!seen) reals.set(ti, (seen = new Set()));
      for (const c of list) {
        if (seen.has(c.facts.real)) continue;
        seen.add(c.facts.real);
        add(out, ti, c);
      }
    }
  }
  return out;
}

/**
 * Whether two of the copies lie in a copied block: the statements just before
 * (or just after) each of them are also copies of one statement. Two rules
 * that attach to the same files are often written for neighbouring subjects
 * and share a stock line ("Test both success and failure scenarios"); a
 * copied run of statements is a copied section. Linear in the copies.
 */
function inCopiedBlock(list: readonly Copy[]): boolean {
  // The keys of the statements just before each copy, and of those just after.
  const seen = [new Map<string, Copy>(), new Map<string, Copy>()] as const;
  for (const c of list) {
    for (const side of [0, 1] as const) {
      for (const k of c.facts.keysAt[c.statement.seq + (side === 0 ? -1 : 1)] ?? []) {
        const other = seen[side].get(k);
        if (other && other.facts.real !== c.facts.real) return true;
        if (!other) seen[side].set(k, c);
      }
    }
  }
  return false;
}

/** The copies and variants of one kind of context; a variant's standing copies are added once. */
class Found {
  readonly copies = new Set<Copy>();
  readonly variants = new Set<number>();
  together = 0;

  add(vi: number, own: readonly Copy[], extra: readonly Copy[], n: number): void {
    if (!this.variants.has(vi)) {
      this.variants.add(vi);
      for (const c of own) this.copies.add(c);
    }
    for (const c of extra) this.copies.add(c);
    this.together = Math.max(this.together, n);
  }
}

function add<T>(map: Map<number, T[]>, key: number, c: T): void {
  const list = map.get(key);
  if (list) list.push(c);
  else map.set(key, [c]);
}

/** Paths each real file loads on: its variants' path counts plus its attachments' matches. */
function pathsLoaded(where: Where): (real: string) => number {
  const memo = new Map<string, number>();
  return (real) => {
    let n = memo.get(real);
    if (n === undefined) {
      n = 0;
      for (const vi of where.variantsOf.get(real) ?? []) n += (where.variants[vi] as ResolvedVariant).pathCount;
      for (const ai of where.attachmentsOf.get(real) ?? []) n += (where.reach[ai] as AttachmentReach).matches;
      memo.set(real, n);
    }
    return n;
  };
}

/** The copy to keep: it loads on the most paths; then the broadest scope, the layer order, the source id. */
function broadest(copies: readonly Copy[], paths: (real: string) => number, layerOrder: readonly Layer[]): Copy {
  const rank = (l: Layer): number => {
    const i = layerOrder.indexOf(l);
    return i < 0 ? layerOrder.length : i;
  };
  return [...copies].sort((x, y) => paths(y.facts.real) - paths(x.facts.real)
    || x.facts.authority.specificity - y.facts.authority.specificity
    || rank(x.facts.authority.layer) - rank(y.facts.authority.layer)
    || compareCodeUnits(x.facts.id, y.facts.id))[0] as Copy;
}
