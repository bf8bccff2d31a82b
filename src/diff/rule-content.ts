/**
 * What a rule says, in the forms a diff compares: its site (file, line,
 * layer, scope, enforced), its lines, its topic findings and how many
 * obligations it states.
 */
import type { Rule } from '../conflicts/rules.js';
import type { ModelSource } from './source-model.js';
import type { RuleFinding, RuleSite } from './rule-change.js';

export interface RuleContent {
  site: RuleSite;
  /** Explicit ids (a marker or frontmatter id) identify a rule across files. */
  explicit: boolean;
  /** Trimmed, non-blank lines from the heading to the rule's last line (code blocks included). */
  lines: string[];
  /** The file line (1-based) of each of `lines`. */
  lineNumbers: number[];
  /** The body lines joined (no heading): a moved rule is found by it. '' for a rule with no body. */
  body: string;
  findings: RuleFinding[];
  /** Statements of obligation or prohibition ("must", "never", "do not" …). */
  obligations: number;
}

const OBLIGATION = /\b(?:must(?:\s+not)?|never|always|shall|required|forbidden|prohibited|do\s+not|don't|may\s+not|cannot|can't)\b/gi;

export function ruleContents(s: ModelSource): RuleContent[] {
  const textLines = s.resolved.doc.text.split('\n');
  const findings = findingsByRule(s);
  return s.rules.map((r) => {
    const lines: string[] = [];
    const lineNumbers: number[] = [];
    textLines.slice(r.line - 1, r.endLine).forEach((l, i) => {
      const t = l.trim();
      if (t === '') return;
      lines.push(t);
      lineNumbers.push(r.line + i);
    });
    const bodyLines = r.headingPath.length > 0 ? lines.slice(1) : lines;
    return {
      site: siteOf(s, r),
      explicit: r.explicit,
      lines,
      lineNumbers,
      body: bodyLines.join('\n'),
      findings: findings.get(r.id) ?? [],
      obligations: bodyLines.reduce((n, l) => n + (l.match(OBLIGATION)?.length ?? 0), 0),
    };
  });
}

export function siteOf(s: ModelSource, r: Rule): RuleSite {
  return {
    source: s.resolved.file.id,
    rule: r.id,
    line: r.line,
    end_line: Math.max(r.line, r.endLine),
    heading: r.headingPath,
    layer: s.resolved.info.layer,
    enforced: s.authority.enforced,
    scope: s.authority.scope,
    activation: s.resolved.info.activation,
  };
}

/** Each rule's distinct findings, in file order: `test-command: pnpm test`, `package-manager: not npm`. */
function findingsByRule(s: ModelSource): Map<string, RuleFinding[]> {
  const out = new Map<string, RuleFinding[]>();
  const seen = new Set<string>();
  const all = [...s.facts.topics.values()].flatMap((byKey) => [...byKey.values()].flat()).sort((a, b) => a.line - b.line || a.col - b.col);
  for (const l of all) {
    // A refinement repeats a finding of the same clause under a narrower key, for comparison only.
    if (l.finding.refines) continue;
    const topic = l.finding.key === '' ? l.topic : `${l.topic}/${l.finding.key}`;
    const value = `${l.finding.negated ? 'not ' : ''}${l.finding.value}`;
    const key = `${l.rule}\u0000${topic}\u0000${value}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const list = out.get(l.rule) ?? [];
    list.push({ topic, value, line: l.line });
    out.set(l.rule, list);
  }
  return out;
}
