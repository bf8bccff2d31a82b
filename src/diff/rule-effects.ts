/**
 * What a change does to a rule, from the two sides' facts (pure):
 *
 * 1. Scope: how far the file reaches — activation (manual < requested <
 *    attached/import < standing), globs (subset, or literal bases inside one
 *    another), the scope directory of a standing file — gives scope-narrowed
 *    and/or scope-widened; reaching the whole repository where it did not
 *    (a root or managed standing file, or a `**` glob from the root) gives
 *    scope-to-repository. A change of layer (other than between repo and
 *    path, which follow from the file's place) and of `enforce: true` are
 *    effects too.
 * 2. Text: a topic whose value was replaced (or whose command now names
 *    another target, the same base topic) is prescription-changed; a new
 *    prohibition or more obligation words is tightened; findings or
 *    obligations removed is loosened; more lines without either is
 *    added-guidance; anything else that changed the text is wording.
 */
import { globBase } from '../conflicts/cascade.js';
import { isWithin } from '../util/posix-path.js';
import type { RuleContent } from './rule-content.js';
import type { ModelSource } from './source-model.js';
import type { Bump } from './bundle-diff.js';
import type { RuleEffect } from './rule-change.js';

const REVIEWED = new Set(['repo', 'path']);
const REACH: Record<string, number> = { manual: 0, requested: 1, attached: 2, import: 2, standing: 3 };

export const EFFECT_BUMP: Record<RuleEffect, Exclude<Bump, 'none'>> = {
  tightened: 'major', loosened: 'major', 'prescription-changed': 'major', 'scope-narrowed': 'major', 'enforcement-changed': 'major',
  'layer-changed': 'major', 'added-guidance': 'minor', 'scope-widened': 'minor', 'scope-to-repository': 'minor', wording: 'patch',
};

export function scopeEffects(o: ModelSource, n: ModelSource): RuleEffect[] {
  const out = new Set<RuleEffect>();
  const oi = o.resolved.info;
  const ni = n.resolved.info;
  const ro = REACH[oi.activation] ?? 0;
  const rn = REACH[ni.activation] ?? 0;
  if (rn > ro) out.add('scope-widened');
  if (rn < ro) out.add('scope-narrowed');
  if (oi.activation === 'attached' && ni.activation === 'attached') for (const e of globEffects(oi.globs, ni.globs)) out.add(e);
  if (oi.activation === 'standing' && ni.activation === 'standing') for (const e of dirEffects(standingScope(o), standingScope(n))) out.add(e);
  if (wholeRepository(n) && !wholeRepository(o)) out.add('scope-to-repository').add('scope-widened');
  // repo and path are both reviewed layers that follow from where a file sits; the scope effects cover that.
  if (oi.layer !== ni.layer && !(REVIEWED.has(oi.layer) && REVIEWED.has(ni.layer))) out.add('layer-changed');
  if (o.authority.enforced !== n.authority.enforced) out.add('enforcement-changed');
  return [...out];
}

/** The directory a standing file governs; managed files govern the whole repository. */
function standingScope(s: ModelSource): string {
  return s.resolved.info.layer === 'managed' ? '' : s.resolved.file.scope;
}

function wholeRepository(s: ModelSource): boolean {
  const info = s.resolved.info;
  if (info.activation === 'standing') return standingScope(s) === '';
  return info.activation === 'attached' && info.globs.some((g) => globBase(g) === '' && g.startsWith('**'));
}

function dirEffects(o: string, n: string): RuleEffect[] {
  if (o === n) return [];
  if (isWithin(o, n)) return ['scope-widened'];
  if (isWithin(n, o)) return ['scope-narrowed'];
  return ['scope-narrowed', 'scope-widened'];
}

function globEffects(o: readonly string[], n: readonly string[]): RuleEffect[] {
  const os = new Set(o);
  const ns = new Set(n);
  const newInOld = n.every((g) => os.has(g));
  const oldInNew = o.every((g) => ns.has(g));
  if (newInOld && oldInNew) return [];
  if (newInOld) return ['scope-narrowed'];
  if (oldInNew) return ['scope-widened'];
  const within = (xs: readonly string[], ys: readonly string[]): boolean => xs.every((x) => ys.some((y) => isWithin(globBase(x), globBase(y))));
  const narrower = within(n, o);
  const wider = within(o, n);
  if (narrower && !wider) return ['scope-narrowed'];
  if (wider && !narrower) return ['scope-widened'];
  return ['scope-narrowed', 'scope-widened'];
}

export function textEffects(o: RuleContent, n: RuleContent): RuleEffect[] {
  if (o.lines.join('\n') === n.lines.join('\n')) return [];
  const out = new Set<RuleEffect>();
  const key = (f: { topic: string; value: string }): string => `${f.topic}\u0000${f.value}`;
  const ok = new Set(o.findings.map(key));
  const nk = new Set(n.findings.map(key));
  const removed = o.findings.filter((f) => !nk.has(key(f)));
  const added = n.findings.filter((f) => !ok.has(key(f)));
  // By base topic: a command keyed by a new target (`test-command` → `test-command/script:unit`) was replaced, not added.
  const topicOf = (f: { topic: string; value: string }): string => `${f.topic.split('/')[0]}\u0000${f.value.startsWith('not ') ? '-' : '+'}`;
  const removedTopics = new Set(removed.map(topicOf));
  const replaced = added.filter((f) => removedTopics.has(topicOf(f)));
  if (replaced.length > 0) out.add('prescription-changed');
  const replacedTopics = new Set(replaced.map(topicOf));
  const onlyAdded = added.filter((f) => !replacedTopics.has(topicOf(f)));
  const onlyRemoved = removed.filter((f) => !replacedTopics.has(topicOf(f)));
  if (onlyAdded.some((f) => f.value.startsWith('not '))) out.add('tightened');
  else if (onlyAdded.length > 0) out.add('added-guidance');
  if (onlyRemoved.length > 0) out.add('loosened');
  if (n.obligations > o.obligations) out.add('tightened');
  if (n.obligations < o.obligations) out.add('loosened');
  if (out.size === 0) out.add(n.lines.length > o.lines.length ? 'added-guidance' : 'wording');
  return [...out];
}

/** The largest bump among effects (`patch` when there are none: the text or a fact changed without a known effect). */
export function bumpOf(effects: readonly RuleEffect[]): Exclude<Bump, 'none'> {
  const bumps = effects.map((e) => EFFECT_BUMP[e]);
  return bumps.includes('major') ? 'major' : bumps.includes('minor') ? 'minor' : 'patch';
}
