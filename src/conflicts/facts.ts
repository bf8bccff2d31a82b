/**
 * Facts of one source: what each of its rules says, by topic, with positions.
 *
 * 1. Split the source into rules (rules.ts) and each rule into statements and
 *    clauses (statements.ts). Rules under an "Example(s)" heading are skipped:
 *    they show, they do not prescribe.
 * 2. Run every specific extractor on each clause; run fallbacks only on clauses
 *    no specific extractor matched.
 * 3. Index each long statement by its normalised text, for duplicate detection.
 */
import type { ResolvedSource } from '../resolve/resolve.js';
import { authorityOf, type Authority } from './cascade.js';
import { rulesOf } from './rules.js';
import { clausesOf, positionAt, type Statement } from './statements.js';
import { TOPICS, type Finding } from './topics/index.js';

export interface Located {
  topic: string;
  finding: Finding;
  source: string;
  rule: string;
  line: number;
  col: number;
  excerpt: string;
}

export interface SourceFacts {
  id: string;
  /** The file's real identity: a symlink and its target are one file. */
  real: string;
  authority: Authority;
  /** Which agents read the file: 'agents', 'claude', 'gemini', 'copilot', 'cursor'; '*' for managed, user and imported files. */
  family: string;
  byTopic: Map<string, Located[]>;
  /** Normalised statement text → first occurrence (statements of 40+ characters). */
  statements: Map<string, Located>;
  /** First rule id and line, for events about the whole file. */
  top: { rule: string; line: number };
}

const FAMILY: Partial<Record<string, string>> = {
  'agents-override': 'agents', agents: 'agents', claude: 'claude', 'claude-dot': 'claude', 'claude-rule': 'claude', 'claude-local': 'claude',
  'claude-rule-local': 'claude', gemini: 'gemini', copilot: 'copilot', 'copilot-instructions': 'copilot', cursorrules: 'cursor', 'cursor-rule': 'cursor',
};
const EXAMPLE_HEADING = /\bexamples?\b|\bsample\b|\banti-?patterns?\b/i;
const MIN_DUPLICATE = 40;

export function factsOf(s: ResolvedSource): SourceFacts {
  const rules = rulesOf(s.doc);
  const byTopic = new Map<string, Located[]>();
  const statements = new Map<string, Located>();
  for (const rule of rules) {
    const isExample = rule.headingPath.some((h) => EXAMPLE_HEADING.test(h));
    for (const st of rule.statements) {
      const norm = normaliseStatement(st.text);
      if (norm.length >= MIN_DUPLICATE && !statements.has(norm)) {
        statements.set(norm, locate('duplicate', { value: norm, negated: false, key: '', at: 0 }, s.file.id, rule.id, st, 0));
      }
      if (isExample) continue;
      for (const clause of clausesOf(st)) {
        let matched = false;
        for (const t of TOPICS) {
          if (t.fallback && matched) continue;
          const found = t.extract(clause);
          if (found.length === 0) continue;
          matched = true;
          const list = byTopic.get(t.topic) ?? [];
          for (const f of found) list.push(locate(t.topic, f, s.file.id, rule.id, st, clause.start + f.at));
          byTopic.set(t.topic, list);
        }
      }
    }
  }
  const first = rules[0];
  return {
    id: s.file.id,
    real: s.file.linkTarget ?? s.file.id,
    authority: authorityOf(s),
    family: FAMILY[s.file.format] ?? '*',
    byTopic,
    statements,
    top: { rule: first?.id ?? '_top', line: first?.line ?? s.doc.bodyLine },
  };
}

function locate(topic: string, finding: Finding, source: string, rule: string, st: Statement, offset: number): Located {
  const pos = positionAt(st, offset);
  return { topic, finding, source, rule, line: pos.line, col: pos.col, excerpt: excerptOf(st.text) };
}

export function excerptOf(text: string): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length <= 120 ? t : `${t.slice(0, 117)}...`;
}

/** Lower case, single spaces, no trailing punctuation or emphasis: what makes two statements "the same text". */
export function normaliseStatement(text: string): string {
  return text.toLowerCase().replace(/[*_]{1,3}/g, '').replace(/\s+/g, ' ').trim().replace(/[.;:,!]+$/, '');
}
