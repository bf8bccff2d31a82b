/**
 * Sources and rules added, removed, changed or moved between two sides (pure).
 *
 * 1. Sources by id: a source whose manifest entry is unchanged is skipped
 *    unparsed, so the cost follows the size of the change, not of the bundle.
 * 2. Rules of a changed source, by rule id (rules.ts: heading path, marker or
 *    frontmatter id): on both sides → changed when its lines or its file's
 *    scope facts differ; on one side only → a candidate added or removed.
 * 3. Candidates are paired across all sources through two indexes (explicit
 *    id, then body text): a removed and an added rule that share one are a
 *    move (a renamed section, or text carried to another file); the rest are
 *    added or removed.
 */
import type { ManifestFile, ManifestV1 } from '../bundle/model.js';
import { canonicalJson } from '../util/canonical-json.js';
import { compareCodeUnits } from '../util/compare.js';
import { ruleContents, type RuleContent } from './rule-content.js';
import { scopeEffects, textEffects } from './rule-effects.js';
import type { ModelSource, SourceModel } from './source-model.js';
import type { RuleChange, RuleEffect, RuleFinding, RuleSite, SourceChange } from './rule-change.js';

export interface RulesDiff {
  sources: SourceChange[];
  rules: RuleChange[];
  notes: string[];
}

interface Candidate {
  content: RuleContent;
  source: ModelSource;
  taken: boolean;
}

const FIELDS: readonly (keyof ManifestFile)[] = ['sha256', 'layer', 'scope', 'activation', 'globs', 'format', 'link', 'tracked'];

export function diffRules(oldM: SourceModel, newM: SourceModel, oldFiles: ManifestV1['files'], newFiles: ManifestV1['files']): RulesDiff {
  const out: RulesDiff = { sources: [], rules: [], notes: [] };
  const removed: Candidate[] = [];
  const added: Candidate[] = [];
  const ids = [...new Set([...Object.keys(oldFiles), ...Object.keys(newFiles)])].sort(compareCodeUnits);
  for (const id of ids) {
    const o = oldM.file(id);
    const n = newM.file(id);
    const fields: string[] = o && n ? FIELDS.filter((k) => canonicalJson(o[k] ?? null) !== canonicalJson(n[k] ?? null)) : [];
    if (o && n && fields.length === 0) continue;
    const os = o ? oldM.source(id) : null;
    const ns = n ? newM.source(id) : null;
    if ((o && !os) || (n && !ns)) out.notes.push(`${id}: the source's bytes are not available on the ${o && !os ? 'old' : 'new'} side, so its rules are not compared`);
    const enforced = { old: os?.authority.enforced ?? null, new: ns?.authority.enforced ?? null };
    if (o && n && enforced.old !== enforced.new) fields.push('enforced');
    out.sources.push({ id, change: !o ? 'added' : !n ? 'removed' : 'changed', old: o ?? null, new: n ?? null, enforced, fields });
    compareSource(os, ns, out.rules, removed, added);
  }
  pairMoves(removed, added, out.rules);
  for (const c of removed) if (!c.taken) out.rules.push(oneSided('removed', c.content));
  for (const c of added) if (!c.taken) out.rules.push(oneSided('added', c.content));
  out.rules.sort(ruleOrder);
  return out;
}

function compareSource(os: ModelSource | null, ns: ModelSource | null, rules: RuleChange[], removed: Candidate[], added: Candidate[]): void {
  const oc = os ? ruleContents(os) : [];
  const nc = ns ? ruleContents(ns) : [];
  const oldById = new Map(oc.map((c) => [c.site.rule, c] as const));
  const scope = os && ns ? scopeEffects(os, ns) : [];
  for (const c of nc) {
    const prev = oldById.get(c.site.rule);
    if (!prev) {
      added.push({ content: c, source: ns as ModelSource, taken: false });
      continue;
    }
    oldById.delete(c.site.rule);
    const effects = merge(scope, textEffects(prev, c));
    if (effects.length > 0) rules.push(twoSided('changed', prev, c, effects));
  }
  for (const c of oldById.values()) removed.push({ content: c, source: os as ModelSource, taken: false });
}

/** Pair removed and added rules by explicit id, then by body text; each pairing is a move. */
function pairMoves(removed: Candidate[], added: Candidate[], rules: RuleChange[]): void {
  const byKey = new Map<string, Candidate[]>();
  const index = (key: string, c: Candidate): void => {
    const list = byKey.get(key);
    if (list) list.push(c);
    else byKey.set(key, [c]);
  };
  for (const c of removed) {
    if (c.content.explicit) index(`id\u0000${c.content.site.rule}`, c);
    if (c.content.body !== '') index(`body\u0000${c.content.body}`, c);
  }
  for (const a of added) {
    const keys = [...(a.content.explicit ? [`id\u0000${a.content.site.rule}`] : []), ...(a.content.body !== '' ? [`body\u0000${a.content.body}`] : [])];
    for (const key of keys) {
      const r = byKey.get(key)?.find((c) => !c.taken);
      if (!r) continue;
      r.taken = true;
      a.taken = true;
      rules.push(twoSided('moved', r.content, a.content, merge(scopeEffects(r.source, a.source), textEffects(r.content, a.content))));
      break;
    }
  }
}

function merge(a: readonly RuleEffect[], b: readonly RuleEffect[]): RuleEffect[] {
  return [...new Set([...a, ...b])].sort(compareCodeUnits);
}

function twoSided(kind: 'changed' | 'moved', o: RuleContent, n: RuleContent, effects: RuleEffect[]): RuleChange {
  const removed = minus(o.lines, n.lines);
  const added = minus(n.lines, o.lines);
  return {
    kind, rule: n.site.rule, old: o.site, new: n.site, effects,
    removed_lines: removed.map((i) => o.lines[i] as string), added_lines: added.map((i) => n.lines[i] as string),
    removed_at: removed.map((i) => o.lineNumbers[i] as number), added_at: added.map((i) => n.lineNumbers[i] as number),
    removed_findings: minusFindings(o.findings, n.findings), added_findings: minusFindings(n.findings, o.findings),
  };
}

function oneSided(kind: 'added' | 'removed', c: RuleContent): RuleChange {
  const isAdded = kind === 'added';
  return {
    kind, rule: c.site.rule, old: isAdded ? null : c.site, new: isAdded ? c.site : null, effects: [],
    removed_lines: isAdded ? [] : c.lines, added_lines: isAdded ? c.lines : [],
    removed_at: isAdded ? [] : c.lineNumbers, added_at: isAdded ? c.lineNumbers : [],
    removed_findings: isAdded ? [] : c.findings.filter((f) => !isDirective(f)), added_findings: isAdded ? c.findings.filter((f) => !isDirective(f)) : [],
  };
}

/** Indices of the lines of `xs` not matched by a line of `ys` (multiset difference), in `xs` order. */
function minus(xs: readonly string[], ys: readonly string[]): number[] {
  const left = new Map<string, number>();
  for (const y of ys) left.set(y, (left.get(y) ?? 0) + 1);
  const out: number[] = [];
  xs.forEach((x, i) => {
    const n = left.get(x) ?? 0;
    if (n === 0) out.push(i);
    else left.set(x, n - 1);
  });
  return out;
}

/**
 * Findings of `xs` not in `ys`. Free-text directives are left out of what a
 * diff shows: they are normalised prose (lower-cased, stemmed), which no
 * redaction could recognise a secret in; their effect is still counted.
 */
function minusFindings(xs: readonly RuleFinding[], ys: readonly RuleFinding[]): RuleFinding[] {
  const have = new Set(ys.map((f) => `${f.topic}\u0000${f.value}`));
  return xs.filter((f) => !have.has(`${f.topic}\u0000${f.value}`) && !isDirective(f));
}

function isDirective(f: RuleFinding): boolean {
  return f.topic === 'directive' || f.topic.startsWith('directive/');
}

function ruleOrder(a: RuleChange, b: RuleChange): number {
  const sa = (a.new ?? a.old) as RuleSite;
  const sb = (b.new ?? b.old) as RuleSite;
  return compareCodeUnits(sa.source, sb.source) || sa.line - sb.line || compareCodeUnits(a.kind, b.kind) || compareCodeUnits(a.rule, b.rule);
}
