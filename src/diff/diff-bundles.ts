/**
 * diffBundles(old, new): the semantic diff of two bundles (pure: a function of
 * two views and a token counter), linear in the size of the two bundles.
 *
 * 1. Sources and rules (rules-diff.ts): only sources whose manifest entry
 *    changed are parsed; rules are matched by id, then moves by explicit id
 *    or body text, through indexes.
 * 2. Path groups (groups.ts): the union of both indexes partitions the tree;
 *    each directory (or path, when the new side's path list is known) falls
 *    into the group of its pair (old variant → new variant).
 * 3. Per changed group (group-figures.ts): sources joined or left, topic
 *    winners changed (the conflict module's cascade, memoised per variant),
 *    tokens, bytes, per-agent figures and the prompt-cache prefix.
 * 4. Bundle-wide (totals.ts): token totals, top movers, budget cuts, cache
 *    impact, affected paths, winner changes; conflict events introduced and
 *    resolved by id; attachments by the source that heads them.
 * 5. The semver proposal (semver.ts) from the rule and source changes.
 * 6. Secrets never leave: every secret the lint rules detect in the sources
 *    the diff read is masked in the whole result (conflict events come
 *    masked from the manifests already).
 */
import type { ManifestV1 } from '../bundle/model.js';
import { DEFAULT_LAYER_ORDER } from '../conflicts/cascade.js';
import { redactDeep, redactionsOf, type Redactions } from '../diagnostics/redact.js';
import type { Layer } from '../types.js';
import { secretSites } from '../validate/lint/secrets.js';
import { compareCodeUnits } from '../util/compare.js';
import { tokenCounter, type TokenCounter } from '../validate/token-count.js';
import { groupFigures } from './group-figures.js';
import { groupPaths } from './groups.js';
import { diffRules } from './rules-diff.js';
import { proposeSemver } from './semver.js';
import { sourceModel } from './source-model.js';
import { affectedPaths, budgetChanges, cacheImpact, tokenImpact, winnerSummary } from './totals.js';
import { DIFF_SCHEMA_ID, type AttachmentChange, type BundleDiff, type ConflictChanges, type DiffSide } from './bundle-diff.js';
import type { BundleView } from './view.js';
import { winnersOf } from './winners.js';

export interface DiffOptions {
  /** Counts prompt-cache prefixes; default: the new side's tokenizer. */
  counter?: TokenCounter;
  /** The cascade's layer order for topic winners (policy conflicts.layer_order). */
  layerOrder?: readonly Layer[];
}

export function diffBundles(oldView: BundleView, newView: BundleView, options: DiffOptions = {}): BundleDiff {
  return diffWithRedactions(oldView, newView, options).diff;
}

/** The diff and the secrets found in the sources it read (for a caller that prints more than the diff). */
export function diffWithRedactions(oldView: BundleView, newView: BundleView, options: DiffOptions = {}): { diff: BundleDiff; redactions: Redactions } {
  const om = oldView.manifest;
  const nm = newView.manifest;
  const notes: string[] = [];
  const oldModel = sourceModel(oldView);
  const newModel = sourceModel(newView);
  const rules = diffRules(oldModel, newModel, om.files, nm.files);
  notes.push(...rules.notes);

  const grouping = groupPaths(om, nm, newView.paths);
  if (grouping.unit === 'directories') notes.push('the new side is a bundle directory, whose path list is not recorded: counts are of index directories, not paths');
  if (om.tokenizer !== nm.tokenizer) notes.push(`the tokenizers differ (${om.tokenizer} → ${nm.tokenizer}): cached prefixes are counted with ${nm.tokenizer}`);
  const layerOrder = options.layerOrder ?? DEFAULT_LAYER_ORDER;
  const ctx = {
    old: oldView, new: newView, pathsKnown: newView.paths !== null,
    oldWinners: winnersOf(oldModel, layerOrder), newWinners: winnersOf(newModel, layerOrder),
    counter: options.counter ?? tokenCounter(nm.tokenizer),
  };
  const groups = grouping.changed.map((g) => groupFigures(g, ctx));
  const winners = winnerSummary(grouping, groups);
  const conflicts = conflictChanges(om, nm);
  const budgets = budgetChanges(grouping, groups);
  const affected = affectedPaths(grouping);
  const count = (k: string): number => rules.rules.filter((r) => r.kind === k).length;
  const countSources = (k: string): number => rules.sources.filter((s) => s.change === k).length;
  const diff: BundleDiff = {
    schema: DIFF_SCHEMA_ID,
    old: sideOf(oldView),
    new: sideOf(newView),
    identical: om.bundle_id === nm.bundle_id,
    semver: proposeSemver(om, nm, rules.sources, rules.rules),
    summary: {
      unit: grouping.unit,
      sources: { added: countSources('added'), removed: countSources('removed'), changed: countSources('changed') },
      rules: { added: count('added'), removed: count('removed'), changed: count('changed'), moved: count('moved') },
      groups: groups.length,
      affected: affected.count,
      total: grouping.total,
      conflicts: { introduced: conflicts.introduced.length, resolved: conflicts.resolved.length,
        introduced_errors: conflicts.introduced.filter((e) => e.severity === 'error').length },
      winners_changed: winners.length,
      newly_dropped: budgets.filter((b) => b.change === 'now-dropped').length,
    },
    sources: rules.sources,
    rules: rules.rules,
    groups,
    winners,
    conflicts,
    tokens: tokenImpact(grouping, groups, om, nm),
    budgets,
    cache: cacheImpact(grouping, groups),
    affected,
    attachments: attachmentChanges(om, nm),
    notes,
  };
  const redactions = redactionsOf(secretSites([...oldModel.parsed(), ...newModel.parsed()].map((s) => s.resolved.doc)));
  return { diff: redactDeep(diff, redactions), redactions };
}

function sideOf(v: BundleView): DiffSide {
  const m = v.manifest;
  return {
    label: v.label,
    kind: v.kind,
    commit: v.commit ?? m.source.commit,
    bundle_id: m.bundle_id,
    digest: v.digest,
    revision: m.revision.version,
    compiler: m.compiler.version,
    policy_digest: m.policy.digest,
    tokenizer: m.tokenizer,
    paths_known: v.paths !== null,
    diagnostics: { errors: m.diagnostics.errors, warnings: m.diagnostics.warnings, infos: m.diagnostics.infos },
  };
}

/** Events are content-addressed: an id on one side only was introduced or resolved. */
function conflictChanges(om: ManifestV1, nm: ManifestV1): ConflictChanges {
  const oldIds = new Set(om.conflicts.map((e) => e.id));
  const newIds = new Set(nm.conflicts.map((e) => e.id));
  const byId = (a: { id: string }, b: { id: string }): number => compareCodeUnits(a.id, b.id);
  return {
    introduced: nm.conflicts.filter((e) => !oldIds.has(e.id)).sort(byId),
    resolved: om.conflicts.filter((e) => !newIds.has(e.id)).sort(byId),
  };
}

/** Attachments are matched by the glob-scoped source that heads them (their ids change with any content). */
function attachmentChanges(om: ManifestV1, nm: ManifestV1): AttachmentChange[] {
  const side = (m: ManifestV1): Map<string, AttachmentChange['old']> => {
    const out = new Map<string, AttachmentChange['old']>();
    for (const [id, a] of Object.entries(m.attachments)) {
      const head = a.sources[0]?.id;
      if (head !== undefined) out.set(head, { id, globs: a.globs, tokens: a.tokens, bytes: a.bytes });
    }
    return out;
  };
  const o = side(om);
  const n = side(nm);
  const out: AttachmentChange[] = [];
  for (const source of [...new Set([...o.keys(), ...n.keys()])].sort(compareCodeUnits)) {
    const a = o.get(source) ?? null;
    const b = n.get(source) ?? null;
    if (a && b && a.id === b.id) continue;
    out.push({ source, change: !a ? 'added' : !b ? 'removed' : 'changed', old: a, new: b });
  }
  return out;
}
