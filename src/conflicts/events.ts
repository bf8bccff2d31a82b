/**
 * Conflict events: the records that go into the manifest, `explain` and the
 * reports, and the one diagnostic each event produces.
 *
 * An event's id is `c-` + 16 hex of sha256 over the canonical JSON of its
 * topic, kind and sides (source id, rule id, normalised value) — never line
 * numbers, excerpts or unrelated text, so it survives edits elsewhere in
 * either file and is what a policy override names. A duplicate or copy event
 * (one per duplicated statement) hashes its kind, topic, the whole normalised
 * statement and each copy's source and rule id.
 */
import type { Severity } from '../diagnostics/diagnostic.js';
import { diag, type Diagnostic, type RelatedLocation } from '../diagnostics/diagnostic.js';
import { canonicalJson } from '../util/canonical-json.js';
import { contentId } from '../util/hash.js';
import { compareCodeUnits } from '../util/compare.js';
import type { Located } from './facts.js';
import { CODE_OF, type ConflictKind } from '../diagnostics/conflict-codes.js';


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
  /** Duplicate and copy events: tokens one copy costs × (most copies one context loads − 1). */
  wasted_tokens?: number;
  accepted?: { owner: string; reason: string; expires: string };
}

/** At most this many copies are named in a duplicate's diagnostic (the event lists them all). */
const MAX_RELATED = 20;

export function sideOf(l: Located, layer: string, scope: string): ConflictSide {
  const value = l.topic === 'duplicate' ? truncate(l.finding.value, 80) : `${l.finding.negated ? 'not ' : ''}${l.finding.value}`;
  return { source: l.source, line: l.line, col: l.col, layer, scope, rule: l.rule, value, excerpt: l.excerpt };
}

function truncate(s: string, n: number): string {
  return s.length <= n ? s : `${s.slice(0, n - 3)}...`;
}

/** Content-derived id: topic, kind and each side's (source, rule, value), sorted. */
export function eventId(topic: string, kind: ConflictKind, sides: readonly ConflictSide[]): string {
  return contentId('c-', canonicalJson({ kind, sides: byEncoding(sides.map((s) => [s.source, s.rule, s.value])), topic }));
}

/** Id of a duplicated statement: kind, topic, the whole normalised text and each copy's (source, rule). */
export function textEventId(topic: string, kind: ConflictKind, text: string, sides: readonly ConflictSide[]): string {
  return contentId('c-', canonicalJson({ kind, sides: byEncoding(sides.map((s) => [s.source, s.rule])), text, topic }));
}

/** `parts` in the order of their canonical encodings, each encoded once (a duplicate lists hundreds of copies). */
function byEncoding(parts: string[][]): string[][] {
  return parts.map((p) => ({ p, key: canonicalJson(p) })).sort((x, y) => compareCodeUnits(x.key, y.key)).map((x) => x.p);
}

export function rulingText(kind: ConflictKind, topic: string, sides: readonly ConflictSide[], adopted: string | null): string {
  const wins = sides.filter((s) => s.source === adopted);
  const others = sides.filter((s) => s.source !== adopted);
  const say = (list: readonly ConflictSide[]): string => list.map((s) => `${s.source} (${s.value})`).join(', ');
  const files = (list: readonly ConflictSide[]): string => {
    const names = [...new Set(list.map((s) => s.source))];
    return names.length <= 6 ? names.join(', ') : `${names.slice(0, 5).join(', ')} and ${names.length - 5} more`;
  };
  switch (kind) {
    case 'violation':
      return `${say(others)} contradicts the enforced managed rule ${say(wins)}; the managed rule stands`;
    case 'override':
      return `${say(wins)} wins over ${say(others)} on ${topic}`;
    case 'contradiction':
      return `${sides.map((s) => `${s.source} (${s.value})`).join(' and ')} disagree on ${topic}; no rule is adopted`;
    case 'duplicate':
      return `one statement has ${sides.length} copies that an agent loads together (${files(sides)}); keep the copy in ${adopted ?? sides[0]?.source}`;
    case 'copy':
      return `one statement is written into ${sides.length} files for different agents at the same scope (${files(sides)}); no agent loads two copies, but they drift apart when one is edited`;
    case 'shadow':
      return `${adopted} is loaded and ${files(others)} is not`;
  }
}

/** One diagnostic per event, at the losing (or violating, or shadowed) side, naming the others in `related`. */
export function diagnosticOf(e: ConflictEvent): Diagnostic {
  const at = e.sides.find((s) => s.source !== e.adopted) ?? (e.sides[0] as ConflictSide);
  const rest = e.sides.filter((s) => s !== at);
  const related: RelatedLocation[] = rest.slice(0, MAX_RELATED).map((s) => ({
    file: s.source,
    range: { start: { line: s.line, col: s.col }, end: { line: s.line, col: s.col } },
    message: `${s.source === e.adopted ? (e.kind === 'duplicate' ? 'keep' : 'adopted') : 'also'}: ${s.value}${s.excerpt ? ` — ${s.excerpt}` : ''}`,
  }));
  const more = rest.length > MAX_RELATED ? ` (${rest.length - MAX_RELATED} more copies are listed in the event)` : '';
  const names = e.sides.length <= 4 ? [...new Set(e.sides.map((s) => s.source))].join(' vs ') : `${e.sides.length} sides`;
  const accepted = e.accepted ? ` (accepted by ${e.accepted.owner} until ${e.accepted.expires}: ${e.accepted.reason})` : '';
  const waste = e.wasted_tokens !== undefined && e.kind === 'duplicate' ? `; the extra copies cost ${e.wasted_tokens} tokens` : '';
  return diag(CODE_OF[e.kind], {
    file: at.source,
    range: { start: { line: at.line, col: at.col }, end: { line: at.line, col: at.col } },
    message: `${e.kind} on ${e.topic} [${e.id}] (${names}): ${e.ruling}${waste}${accepted}${more}`,
    hint: e.kind === 'violation' ? `remove the contradicting rule from ${at.source}; overrides cannot accept a violation of an enforced rule` : `${e.reason}`,
    related,
    severity: e.severity,
    ...(e.accepted ? { suppressed: e.accepted } : {}),
  });
}

export function sortEvents(events: Iterable<ConflictEvent>): ConflictEvent[] {
  return [...events].sort((a, b) => compareCodeUnits(a.id, b.id));
}
