/**
 * Conflict events: the records that go into the manifest, `explain` and the
 * reports, and the one diagnostic each event produces.
 *
 * An event's id is `c-` + 16 hex of sha256 over the canonical JSON of its
 * topic, kind and sides (source id, rule id, normalised value) — never line
 * numbers, excerpts or unrelated text, so it survives edits elsewhere in
 * either file and is what a policy override names.
 */
import type { Severity } from '../diagnostics/diagnostic.js';
import { diag, type Diagnostic, type RelatedLocation } from '../diagnostics/diagnostic.js';
import { canonicalJson } from '../util/canonical-json.js';
import { contentId } from '../util/hash.js';
import { compareCodeUnits } from '../util/compare.js';
import type { Located } from './facts.js';

export type ConflictKind = 'override' | 'shadow' | 'violation' | 'contradiction' | 'duplicate';

export interface ConflictSide {
  source: string;
  line: number;
  col: number;
  layer: string;
  scope: string;
  rule: string;
  value: string;
  excerpt: string;
}

export interface ConflictEvent {
  type: 'instruction_conflict';
  id: string;
  kind: ConflictKind;
  topic: string;
  variants: string[];
  paths: { count: number; examples: string[] };
  sides: ConflictSide[];
  adopted: string | null;
  ruling: string;
  reason: string;
  severity: Severity;
  accepted?: { owner: string; reason: string; expires: string };
}

export const DEFAULT_SEVERITY: Record<ConflictKind, Severity> = {
  override: 'info', shadow: 'info', duplicate: 'warning', contradiction: 'warning', violation: 'error',
};

export const CODE_OF: Record<ConflictKind, string> = {
  override: 'RC3101', shadow: 'RC3102', contradiction: 'RC3103', duplicate: 'RC3104', violation: 'RC3201',
};

export function sideOf(l: Located, layer: string, scope: string): ConflictSide {
  const value = l.topic === 'duplicate' ? truncate(l.finding.value, 80) : `${l.finding.negated ? 'not ' : ''}${l.finding.value}`;
  return { source: l.source, line: l.line, col: l.col, layer, scope, rule: l.rule, value, excerpt: l.excerpt };
}

function truncate(s: string, n: number): string {
  return s.length <= n ? s : `${s.slice(0, n - 3)}...`;
}

/** Content-derived id: topic, kind and each side's (source, rule, value), sorted. */
export function eventId(topic: string, kind: ConflictKind, sides: readonly ConflictSide[]): string {
  const parts = sides.map((s) => [s.source, s.rule, s.value]).sort((p, q) => compareCodeUnits(canonicalJson(p), canonicalJson(q)));
  return contentId('c-', canonicalJson({ kind, sides: parts, topic }));
}

export function rulingText(kind: ConflictKind, topic: string, sides: readonly ConflictSide[], adopted: string | null, shared?: number): string {
  const win = sides.find((s) => s.source === adopted);
  const others = sides.filter((s) => s.source !== adopted);
  const say = (s: ConflictSide): string => `${s.source} (${s.value})`;
  switch (kind) {
    case 'violation':
      return `${others.map(say).join(', ')} contradicts the enforced managed rule ${win ? say(win) : ''}; the managed rule stands`;
    case 'override':
      return `${win ? say(win) : ''} wins over ${others.map(say).join(', ')} on ${topic}`;
    case 'contradiction':
      return `${sides.map(say).join(' and ')} disagree on ${topic}; no rule is adopted`;
    case 'duplicate':
      return `${shared ?? 1} statement${shared === 1 ? '' : 's'} appear${shared === 1 ? 's' : ''} in both ${sides.map((s) => s.source).join(' and ')}; keep the copy in ${adopted ?? sides[0]?.source}`;
    case 'shadow':
      return `${adopted} is loaded and ${others.map((s) => s.source).join(', ')} is not`;
  }
}

/** One diagnostic per event, at the losing (or violating, or shadowed) side, naming the others in `related`. */
export function diagnosticOf(e: ConflictEvent): Diagnostic {
  const at = e.sides.find((s) => s.source !== e.adopted) ?? (e.sides[0] as ConflictSide);
  const related: RelatedLocation[] = e.sides.filter((s) => s !== at).map((s) => ({
    file: s.source,
    range: { start: { line: s.line, col: s.col }, end: { line: s.line, col: s.col } },
    message: `${s.source === e.adopted ? 'adopted' : 'also'}: ${s.value}${s.excerpt ? ` — ${s.excerpt}` : ''}`,
  }));
  const names = e.sides.map((s) => s.source).join(' vs ');
  const accepted = e.accepted ? ` (accepted by ${e.accepted.owner} until ${e.accepted.expires}: ${e.accepted.reason})` : '';
  return diag(CODE_OF[e.kind], {
    file: at.source,
    range: { start: { line: at.line, col: at.col }, end: { line: at.line, col: at.col } },
    message: `${e.kind} on ${e.topic} [${e.id}] (${names}): ${e.ruling}${accepted}`,
    hint: e.kind === 'violation' ? `remove the contradicting rule from ${at.source}; overrides cannot accept a violation of an enforced rule` : `${e.reason}`,
    related,
    severity: e.severity,
  });
}

export function sortEvents(events: Iterable<ConflictEvent>): ConflictEvent[] {
  return [...events].sort((a, b) => compareCodeUnits(a.id, b.id));
}
