/**
 * Which attachments load together: two glob-scoped rules co-attach when some
 * path of the repository matches both, so an agent reading that path is given
 * both. Decided on the real matched paths, never by intersecting globs.
 *
 * 1. Each distinct glob appends its index to every path it matches (a glob
 *    many rules share, `docs/**`, is walked once). A path's list of glob
 *    indices is its signature.
 * 2. Per distinct signature, its rules: the owners of its most shared glob,
 *    plus those of its other globs that are not among them (memoised per
 *    signature, so a path costs its signature's length; built once per most
 *    shared glob and additions).
 * 3. Paths whose rules number two or more are grouped by those rules; a group
 *    records its rules, the directories of its paths and their count.
 *
 * The work is the distinct globs' matches, which matching already produced,
 * plus, per distinct signature, the owners of all but its most shared glob:
 * never pairs of rules × paths.
 */
import { compareCodeUnits } from '../util/compare.js';
import { dirnameOf } from '../util/posix-path.js';

export interface CoAttachment {
  /** Indices of the attachments that load together (ascending; two or more). */
  attachments: number[];
  /** Directories of the paths that load exactly these attachments (sorted). */
  dirs: string[];
  /** How many paths load exactly these attachments. */
  paths: number;
}

/** One distinct glob: what it matches (sorted, no repeats) and the attachments whose globs include it (ascending). */
export interface GlobOwners {
  matches: readonly string[];
  owners: readonly number[];
}

/** Each distinct glob that matches something (`matched`), with the attachments (by index) whose globs include it. */
export function globOwners(attachments: readonly { globs: readonly string[] }[], matched: ReadonlyMap<string, readonly string[]>): GlobOwners[] {
  const byGlob = new Map<string, { matches: readonly string[]; owners: number[] }>();
  attachments.forEach((a, ai) => {
    for (const glob of a.globs) {
      const matches = matched.get(glob);
      if (!matches) continue;
      let g = byGlob.get(glob);
      if (!g) byGlob.set(glob, (g = { matches, owners: [] }));
      if (g.owners[g.owners.length - 1] !== ai) g.owners.push(ai);
    }
  });
  return [...byGlob.values()];
}

export function coAttachments(globs: readonly GlobOwners[]): CoAttachment[] {
  const signature = new Map<string, number[]>();
  globs.forEach((g, gi) => {
    if (g.owners.length === 0) return;
    for (const p of g.matches) {
      const sig = signature.get(p);
      if (sig) sig.push(gi);
      else signature.set(p, [gi]);
    }
  });
  const rulesOf = rulesBySignature(globs);
  const groups = new Map<string, { attachments: number[]; dirs: Set<string>; paths: number }>();
  for (const [p, sig] of signature) {
    const rules = rulesOf(sig);
    if (rules === null) continue;
    // Keyed by the rules themselves: two memo keys (another most shared glob) can name one list.
    let g = groups.get(rules.listKey);
    if (!g) groups.set(rules.listKey, (g = { attachments: rules.list, dirs: new Set(), paths: 0 }));
    g.dirs.add(dirnameOf(p));
    g.paths++;
  }
  return [...groups.values()]
    .map((g) => ({ attachments: g.attachments, dirs: [...g.dirs].sort(compareCodeUnits), paths: g.paths }))
    .sort((a, b) => compareIndices(a.attachments, b.attachments));
}

/** A signature's rules: its memo key, the list, and the list as a key (joined once, not once per path). */
interface Rules {
  key: string;
  list: number[];
  listKey: string;
}

/**
 * Step 2: the rules of a signature (null when fewer than two), memoised by
 * signature and keyed by its most shared glob and the rules the others add:
 * signatures that add nothing to one shared glob share its list, unbuilt.
 */
function rulesBySignature(globs: readonly GlobOwners[]): (sig: readonly number[]) => Rules | null {
  const bySig = new Map<string, Rules | null>();
  const byKey = new Map<string, Rules | null>();
  const ownerSets = new Map<number, Set<number>>();
  const ownersOf = (gi: number): readonly number[] => (globs[gi] as GlobOwners).owners;
  const ownerSet = (gi: number): Set<number> => {
    let s = ownerSets.get(gi);
    if (!s) ownerSets.set(gi, (s = new Set(ownersOf(gi))));
    return s;
  };
  return (sig) => {
    const sigKey = sig.join(',');
    let found = bySig.get(sigKey);
    if (found === undefined) {
      let widest = sig[0] as number;
      for (const gi of sig) if (ownersOf(gi).length > ownersOf(widest).length) widest = gi;
      const extra = new Set<number>();
      if (sig.length > 1) {
        const base = ownerSet(widest);
        for (const gi of sig) if (gi !== widest) for (const o of ownersOf(gi)) if (!base.has(o)) extra.add(o);
      }
      const extras = [...extra].sort((a, b) => a - b);
      const key = `${widest}+${extras.join(',')}`;
      found = byKey.get(key);
      if (found === undefined) {
        const list = extras.length === 0 ? [...ownersOf(widest)] : [...ownersOf(widest), ...extras].sort((a, b) => a - b);
        found = list.length < 2 ? null : { key, list, listKey: list.join(',') };
        byKey.set(key, found);
      }
      bySig.set(sigKey, found);
    }
    return found;
  };
}

function compareIndices(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
  return a.length - b.length;
}
