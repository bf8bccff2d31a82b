/**
 * Where each rule that does not stand everywhere can load, and with what:
 * the contexts conflict and duplicate detection compare beyond a variant's
 * standing sources.
 *
 * 1. An attachment can attach in the variants whose directories lie under its
 *    globs' literal base (found by binary search over the sorted directories).
 * 2. Attachments of one agent's format family (two `.claude/rules` files, two
 *    Cursor rules, two `.github/instructions` files) that some path of the
 *    repository matches together (resolve/co-attachment.ts) load together:
 *    the agent reading that path is given both. Each such set is a context,
 *    in the variants of the directories of those paths. Rules of different
 *    families are never given together by one agent.
 * 3. An agent-requested rule (a Cursor rule with only a description) loads
 *    when the agent asks for it, with the standing sources of its own
 *    directory: a context for duplicated text only, whose copies are `copy`
 *    events (the text can drift), never `duplicate` (it is not always read).
 */
import type { Resolution, ResolvedVariant } from '../resolve/resolve.js';
import { formatSpec } from '../formats/formats.js';
import { compareCodeUnits } from '../util/compare.js';
import { lowerBound } from '../util/sorted.js';
import { globBase } from './cascade.js';

/** Where one attachment (or agent-requested rule) can load: its own sources, the indices of the variants it reaches, its matched paths. */
export interface AttachmentReach {
  own: readonly string[];
  reached: readonly number[];
  matches: number;
  /** An agent-requested rule: loads only when asked for; compared for duplicated text only. */
  requested?: boolean;
}

/** Attachments of one family that load together, and the variants of the paths that load them. */
export interface Together {
  /** Indices into Reach.list (attachments only). */
  members: number[];
  variants: number[];
}

export interface Reach {
  /** The attachments, in resolution order, then the agent-requested rules. */
  list: AttachmentReach[];
  /** Per variant index, the attachments that can attach there. */
  reaching: number[][];
  together: Together[];
}

export function reachOf(res: Resolution): Reach {
  const under = variantsUnder(res.variants);
  const reaching: number[][] = res.variants.map(() => []);
  const list: AttachmentReach[] = res.attachments.map((att, ai) => {
    const bases = [...new Set(att.globs.map(globBase))];
    // One base (nearly every rule): its memoised list as it is; several: their union, in order.
    const reached = bases.length === 1 ? under(bases[0] as string) : [...new Set(bases.flatMap(under))].sort((p, q) => p - q);
    for (const vi of reached) (reaching[vi] as number[]).push(ai);
    return { own: [...new Set(att.sources.map((r) => r.id))], reached, matches: att.matches };
  });
  const variantOfDir = new Map<string, number>();
  res.variants.forEach((v, vi) => v.dirs.forEach((d) => variantOfDir.set(d, vi)));
  const together = togetherByFamily(res, variantOfDir);
  for (const s of [...res.sources.values()].filter((x) => x.info.activation === 'requested').sort((a, b) => compareCodeUnits(a.file.id, b.file.id))) {
    const vi = variantOfDir.get(s.file.scope);
    if (vi !== undefined) list.push({ own: [s.file.id], reached: [vi], matches: 0, requested: true });
  }
  return { list, reaching, together };
}

/** Co-attached sets split by family (step 2); one set that several groups share is one context with all their variants. */
function togetherByFamily(res: Resolution, variantOfDir: ReadonlyMap<string, number>): Together[] {
  const familyOf = res.attachments.map((a) => {
    const main = res.sources.get(a.sources[0]?.id ?? '');
    return main ? formatSpec(main.file.format)?.family ?? null : null;
  });
  const byKey = new Map<string, { members: number[]; variants: Set<number> }>();
  for (const g of res.together) {
    const families = new Map<string, number[]>();
    for (const ai of g.attachments) {
      const f = familyOf[ai];
      if (f === null || f === undefined) continue;
      const m = families.get(f);
      if (m) m.push(ai);
      else families.set(f, [ai]);
    }
    for (const members of families.values()) {
      if (members.length < 2) continue;
      const key = members.join(',');
      let t = byKey.get(key);
      if (!t) byKey.set(key, (t = { members, variants: new Set() }));
      for (const d of g.dirs) {
        const vi = variantOfDir.get(d);
        if (vi !== undefined) t.variants.add(vi);
      }
    }
  }
  return [...byKey.values()].map((t) => ({ members: t.members, variants: [...t.variants].sort((p, q) => p - q) }));
}

/**
 * The indices of the variants with a directory at or below `base`, ascending,
 * by binary search over the sorted directories (memoised per base, so an
 * attachment's list may be another's: never mutated): an attachment is
 * compared only with the variants it can attach in, without scanning every
 * variant's directories.
 */
function variantsUnder(variants: readonly ResolvedVariant[]): (base: string) => readonly number[] {
  const dirs = variants.flatMap((v, vi) => v.dirs.map((d) => ({ d, vi }))).sort((a, b) => compareCodeUnits(a.d, b.d));
  const keys = dirs.map((x) => x.d);
  const all = variants.map((_, vi) => vi);
  const memo = new Map<string, readonly number[]>();
  return (base) => {
    let found = memo.get(base);
    if (!found) {
      if (base === '') found = all;
      else {
        const set = new Set<number>();
        const exact = lowerBound(keys, base);
        if (keys[exact] === base) set.add((dirs[exact] as { vi: number }).vi);
        // Directories below `base/` sort between `base/` and `base0` ('0' follows '/').
        for (let i = lowerBound(keys, `${base}/`), end = lowerBound(keys, `${base}0`); i < end; i++) set.add((dirs[i] as { vi: number }).vi);
        found = [...set].sort((p, q) => p - q);
      }
      memo.set(base, found);
    }
    return found;
  };
}
