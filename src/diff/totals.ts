/**
 * Bundle-wide figures, aggregated over the changed path groups (pure, linear
 * in groups × sources per variant): token totals per side and per agent,
 * the top token movers, budget cuts, the prompt-cache impact, the affected
 * paths per directory and the topic winner changes.
 */
import type { ManifestV1 } from '../bundle/model.js';
import { canonicalJson } from '../util/canonical-json.js';
import { compareCodeUnits } from '../util/compare.js';
import { addExample, type Group, type Grouping } from './groups.js';
import { movers } from './group-figures.js';
import type { AffectedPaths, BudgetChange, CacheImpact, TokenImpact } from './bundle-diff.js';
import type { PathGroup, SourceMover, WinnerChangeSummary } from './path-group.js';

export function tokenImpact(grouping: Grouping, groups: readonly PathGroup[], om: ManifestV1, nm: ManifestV1): TokenImpact {
  const t: TokenImpact = { unit: grouping.unit, old_total: 0, new_total: 0, old_bytes: 0, new_bytes: 0,
    largest: { old: largest(om), new: largest(nm) }, profiles: [], top_movers: topMovers(grouping.changed, om, nm) };
  const profiles = new Map<string, TokenImpact['profiles'][number]>();
  grouping.changed.forEach((g, i) => {
    t.old_total += g.units * g.old.tokens;
    t.new_total += g.units * g.new.tokens;
    t.old_bytes += g.units * g.old.bytes;
    t.new_bytes += g.units * g.new.bytes;
    for (const p of (groups[i] as PathGroup).profiles) {
      let row = profiles.get(p.profile);
      if (!row) profiles.set(p.profile, (row = { profile: p.profile, old_tokens: 0, new_tokens: 0, old_fits: 0, new_fits: 0 }));
      row.old_tokens += g.units * (p.old?.tokens ?? 0);
      row.new_tokens += g.units * (p.new?.tokens ?? 0);
      if (p.old?.fits) row.old_fits += g.units;
      if (p.new?.fits) row.new_fits += g.units;
    }
  });
  t.profiles = [...profiles.values()].sort((a, b) => compareCodeUnits(a.profile, b.profile));
  return t;
}

function largest(m: ManifestV1): TokenImpact['largest']['old'] {
  let best: { variant: string; tokens: number } | null = null;
  for (const [id, v] of Object.entries(m.variants)) {
    if (!best || v.tokens > best.tokens || (v.tokens === best.tokens && compareCodeUnits(id, best.variant) < 0)) best = { variant: id, tokens: v.tokens };
  }
  return best;
}

/** Sources by |delta| × the units whose context holds them (at least 1), at most 10. */
function topMovers(changed: readonly Group[], om: ManifestV1, nm: ManifestV1): SourceMover[] {
  const by = new Map<string, SourceMover>();
  for (const g of changed) {
    for (const m of movers(g.old, g.new, om, nm, g.units)) {
      const prev = by.get(m.source);
      if (prev) prev.units += m.units;
      else by.set(m.source, { ...m });
    }
  }
  const weight = (m: SourceMover): number => Math.abs(m.delta) * Math.max(1, m.units);
  return [...by.values()].sort((a, b) => weight(b) - weight(a) || compareCodeUnits(a.source, b.source)).slice(0, 10);
}

export function budgetChanges(grouping: Grouping, groups: readonly PathGroup[]): BudgetChange[] {
  const by = new Map<string, BudgetChange>();
  grouping.changed.forEach((g, i) => {
    for (const p of (groups[i] as PathGroup).profiles) {
      for (const [change, files] of [['now-dropped', p.newly_dropped], ['no-longer-dropped', p.no_longer_dropped]] as const) {
        for (const file of files) {
          const key = `${p.profile}\u0000${file}\u0000${change}`;
          let b = by.get(key);
          if (!b) by.set(key, (b = { profile: p.profile, file, change, groups: 0, units: { count: 0, examples: [] } }));
          b.groups++;
          b.units.count += g.units;
          for (const e of g.examples) addExample(b.units.examples, e);
        }
      }
    }
  });
  return [...by.values()].sort((a, b) => compareCodeUnits(a.profile, b.profile) || compareCodeUnits(a.file, b.file) || compareCodeUnits(a.change, b.change));
}

export function cacheImpact(grouping: Grouping, groups: readonly PathGroup[]): CacheImpact {
  const c: CacheImpact = { unit: grouping.unit, unchanged: grouping.total, prefix_kept: 0, prefix_lost: 0, tokens_kept: 0, tokens_invalidated: 0 };
  grouping.changed.forEach((g, i) => {
    if (!g.textChanged) return;
    const v = (groups[i] as PathGroup).cache;
    c.unchanged -= g.units;
    if (v.whole_prefix) c.prefix_kept += g.units;
    else c.prefix_lost += g.units;
    c.tokens_kept += g.units * v.kept_tokens;
    c.tokens_invalidated += g.units * (v.old_tokens - v.kept_tokens);
  });
  return c;
}

const MAX_DIRECTORIES = 100;

export function affectedPaths(grouping: Grouping): AffectedPaths {
  const dirs: AffectedPaths['directories'] = [];
  let count = 0;
  for (const g of grouping.changed) {
    count += g.units;
    for (const [dir, d] of g.byDir) dirs.push({ dir: dir === '' ? '.' : dir, count: d.count, examples: d.examples });
  }
  dirs.sort((a, b) => b.count - a.count || compareCodeUnits(a.dir, b.dir));
  return { unit: grouping.unit, count, total: grouping.total, directories: dirs.slice(0, MAX_DIRECTORIES), omitted: Math.max(0, dirs.length - MAX_DIRECTORIES) };
}

export function winnerSummary(grouping: Grouping, groups: readonly PathGroup[]): WinnerChangeSummary[] {
  const by = new Map<string, WinnerChangeSummary>();
  const side = (w: WinnerChangeSummary['old']): unknown => (w ? [w.value, w.source, w.decided] : null);
  grouping.changed.forEach((g, i) => {
    for (const w of (groups[i] as PathGroup).winners) {
      const key = canonicalJson([w.topic, side(w.old), side(w.new)]);
      let s = by.get(key);
      if (!s) by.set(key, (s = { ...w, groups: 0, units: { count: 0, examples: [] } }));
      s.groups++;
      s.units.count += g.units;
      for (const e of g.examples) addExample(s.units.examples, e);
    }
  });
  return [...by.values()].sort((a, b) => b.units.count - a.units.count || compareCodeUnits(a.topic, b.topic)
    || compareCodeUnits(canonicalJson(side(a.old)), canonicalJson(side(b.old))) || compareCodeUnits(canonicalJson(side(a.new)), canonicalJson(side(b.new))));
}
