/**
 * The figures of one changed path group (pure): which sources joined or left
 * its standing context, which topic winners changed, its token, byte and
 * per-agent figures, the sources that moved its token count most, and its
 * prompt-cache figure.
 */
import type { ManifestV1, ManifestVariant } from '../bundle/model.js';
import { compareCodeUnits } from '../util/compare.js';
import type { TokenCounter } from '../validate/token-count.js';
import type { Group } from './groups.js';
import { variantCache } from './prompt-cache.js';
import type { BundleView } from './view.js';
import type { WinnersOf } from './winners.js';
import type { PathGroup, ProfileChange, SourceMover, SourceRefFacts, TopicWinner, WinnerChange } from './path-group.js';

export interface GroupContext {
  old: BundleView;
  new: BundleView;
  oldWinners: WinnersOf;
  newWinners: WinnersOf;
  counter: TokenCounter;
  pathsKnown: boolean;
}

export function groupFigures(g: Group, ctx: GroupContext): PathGroup {
  const om = ctx.old.manifest;
  const nm = ctx.new.manifest;
  return {
    old_variant: g.oldId,
    new_variant: g.newId,
    dirs: { count: g.dirs.length, examples: g.dirs.slice(0, 3).map((d) => (d === '' ? '.' : d)) },
    paths: ctx.pathsKnown ? { count: g.units, examples: g.examples } : null,
    sources: sourceChanges(g.old, g.new, om, nm),
    winners: winnerChanges(ctx.oldWinners(g.oldId, g.old), ctx.newWinners(g.newId, g.new)),
    tokens: { old: g.old.tokens, new: g.new.tokens },
    bytes: { old: g.old.bytes, new: g.new.bytes },
    profiles: profileChanges(g.old, g.new),
    movers: movers(g.old, g.new, om, nm, g.units).slice(0, 5),
    cache: g.textChanged
      ? variantCache(ctx.old.text('variant', g.oldId), ctx.new.text('variant', g.newId), ctx.counter, { old: g.old.tokens, new: g.new.tokens })
      : { old_tokens: g.old.tokens, new_tokens: g.new.tokens, kept_tokens: g.old.tokens, whole_prefix: true, first_change: null },
  };
}

function sourceChanges(o: ManifestVariant, n: ManifestVariant, om: ManifestV1, nm: ManifestV1): PathGroup['sources'] {
  const oldIds = new Map(o.sources.map((r) => [r.id, r] as const));
  const newIds = new Map(n.sources.map((r) => [r.id, r] as const));
  const facts = (m: ManifestV1, r: { id: string; reason: string; imported_by?: string }): SourceRefFacts => ({
    id: r.id, layer: m.files[r.id]?.layer ?? 'repo', reason: r.imported_by === undefined ? r.reason : `imported by ${r.imported_by}`,
  });
  return {
    added: n.sources.filter((r) => !oldIds.has(r.id)).map((r) => facts(nm, r)),
    removed: o.sources.filter((r) => !newIds.has(r.id)).map((r) => facts(om, r)),
    changed: n.sources.filter((r) => oldIds.has(r.id) && om.files[r.id]?.sha256 !== nm.files[r.id]?.sha256).map((r) => r.id),
  };
}

function winnerChanges(o: Map<string, TopicWinner>, n: Map<string, TopicWinner>): WinnerChange[] {
  const same = (a: TopicWinner, b: TopicWinner): boolean => a.value === b.value && a.source === b.source && a.decided === b.decided;
  const topics = [...new Set([...o.keys(), ...n.keys()])].sort(compareCodeUnits);
  const out: WinnerChange[] = [];
  for (const topic of topics) {
    const a = o.get(topic) ?? null;
    const b = n.get(topic) ?? null;
    if (a && b && same(a, b)) continue;
    out.push({ topic, old: a, new: b });
  }
  return out;
}

function profileChanges(o: ManifestVariant, n: ManifestVariant): ProfileChange[] {
  const names = [...new Set([...Object.keys(o.profiles), ...Object.keys(n.profiles)])].sort(compareCodeUnits);
  return names.map((profile) => {
    const a = Object.prototype.hasOwnProperty.call(o.profiles, profile) ? o.profiles[profile] ?? null : null;
    const b = Object.prototype.hasOwnProperty.call(n.profiles, profile) ? n.profiles[profile] ?? null : null;
    const before = new Set(a?.dropped ?? []);
    const after = new Set(b?.dropped ?? []);
    return {
      profile, old: a, new: b,
      newly_dropped: [...after].filter((f) => !before.has(f)).sort(compareCodeUnits),
      no_longer_dropped: [...before].filter((f) => !after.has(f)).sort(compareCodeUnits),
    };
  });
}

/** Sources of either variant whose block tokens differ between the sides (or that join or leave it), largest |delta| first. */
export function movers(o: ManifestVariant, n: ManifestVariant, om: ManifestV1, nm: ManifestV1, units: number): SourceMover[] {
  const inOld = new Set(o.sources.map((r) => r.id));
  const inNew = new Set(n.sources.map((r) => r.id));
  const out: SourceMover[] = [];
  for (const id of [...new Set([...inOld, ...inNew])]) {
    const a = inOld.has(id) ? om.files[id]?.tokens ?? 0 : null;
    const b = inNew.has(id) ? nm.files[id]?.tokens ?? 0 : null;
    const delta = (b ?? 0) - (a ?? 0);
    if (delta !== 0 || (a === null) !== (b === null)) out.push({ source: id, old_tokens: a, new_tokens: b, delta, units });
  }
  return out.sort((x, y) => Math.abs(y.delta) - Math.abs(x.delta) || compareCodeUnits(x.source, y.source));
}
