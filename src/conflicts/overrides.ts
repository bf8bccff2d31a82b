/**
 * Human overrides: a policy entry that accepts a known conflict.
 *
 * 1. An entry names an event by id, or a topic (optionally narrowed to a
 *    scope: a side's directory, '.', 'managed', or the `globs: …` label).
 * 2. An entry past its `expires` date (compared with `today`, which the caller
 *    passes in) is an error and accepts nothing.
 * 3. A violation of an enforced managed rule can never be accepted: an entry
 *    that would is an error.
 * 4. An accepted event keeps its place in the bundle, with `accepted` set and
 *    its severity lowered to info; an entry that matches nothing is a warning
 *    so stale entries get cleaned up.
 * 5. Duplicated text was once one event per pair of files; it is now one event
 *    per statement, with ids of a different form. An entry naming an old
 *    pairwise id therefore matches nothing (never another event): its RC3302
 *    says so when the build has duplicate events to accept instead.
 */
import { diag, type Diagnostic } from '../diagnostics/diagnostic.js';
import type { ConflictEvent } from './events.js';

export interface ConflictOverride {
  event?: string;
  topic?: string;
  scope?: string;
  owner: string;
  reason: string;
  /** YYYY-MM-DD, last day the acceptance holds. */
  expires: string;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function validDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

export function overrideMatches(o: ConflictOverride, e: ConflictEvent): boolean {
  if (o.event !== undefined) return o.event === e.id;
  if (o.topic === undefined) return false;
  if (e.topic !== o.topic && !e.topic.startsWith(`${o.topic}/`)) return false;
  if (o.scope === undefined) return true;
  const scope = o.scope === '' ? '.' : o.scope.replace(/\/+$/, '');
  return e.sides.some((s) => s.scope === scope);
}

/** For an unmatched event id: where a pairwise duplicate override went. */
function staleNote(o: ConflictOverride, events: readonly ConflictEvent[]): string {
  if (o.event === undefined) return '';
  const grouped = events.filter((e) => e.kind === 'duplicate' || e.kind === 'copy').length;
  if (grouped === 0) return '';
  return `. If it accepted a duplicate between two files: duplicates are now one event per duplicated statement (${grouped} here, topic duplicate-text); `
    + 'accept the one you mean by its new id, or all of them with topic: duplicate-text';
}

/** Apply overrides to events in place; returns the diagnostics about the overrides themselves. */
export function applyOverrides(events: ConflictEvent[], overrides: readonly ConflictOverride[], today: string): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  overrides.forEach((o, i) => {
    const label = `conflicts.overrides[${i}]${o.event ? ` (event ${o.event})` : o.topic ? ` (topic ${o.topic}${o.scope ? ` in ${o.scope}` : ''})` : ''}`;
    if ((o.event === undefined && o.topic === undefined) || !validDate(o.expires)) {
      const why = !validDate(o.expires) ? `expires "${o.expires}" is not a calendar date (YYYY-MM-DD)` : 'names neither an event nor a topic';
      diagnostics.push(diag('RC3304', { file: '', message: `${label}: ${why}; it accepts nothing` }));
      return;
    }
    const matched = events.filter((e) => overrideMatches(o, e));
    if (o.expires < today) {
      diagnostics.push(diag('RC3301', { file: '', message: `${label}, owned by ${o.owner}, expired on ${o.expires}; it accepts nothing (${matched.length} matching event${matched.length === 1 ? '' : 's'})` }));
      return;
    }
    if (matched.length === 0) {
      diagnostics.push(diag('RC3302', { file: '', message: `${label}, owned by ${o.owner}, matches no conflict event; remove it${staleNote(o, events)}` }));
      return;
    }
    for (const e of matched) {
      if (e.kind === 'violation') {
        diagnostics.push(diag('RC3303', { file: '', message: `${label}, owned by ${o.owner}, would accept ${e.id}, a violation of an enforced managed rule (${e.adopted}); enforced rules cannot be overridden` }));
        continue;
      }
      if (!e.accepted) {
        e.accepted = { owner: o.owner, reason: o.reason, expires: o.expires };
        e.severity = 'info';
      }
    }
  });
  return diagnostics;
}
