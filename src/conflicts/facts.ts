/**
 * Facts of one source: what each of its rules says, by topic, with positions.
 *
 * 1. Split the source into rules (rules.ts) and each rule into statements and
 *    clauses (statements.ts). Rules under an "Example(s)" heading are skipped:
 *    they show, they do not prescribe.
 * 2. Run every specific extractor on each clause; run fallbacks only on clauses
 *    no specific extractor matched.
 * 3. Keep each distinct finding (topic, key, value, polarity, and whether it
 *    only waives or presumes) once, at its first occurrence, indexed by topic
 *    and key: detection compares only findings that share both. At most
 *    `limit` distinct findings per topic are kept; the number dropped is
 *    recorded so the caller can say so (RC3105).
 * 4. Index each long statement by its duplicate keys (statement-keys.ts), for
 *    duplicate detection.
 *
 * A statement's clauses, findings and duplicate keys are worked out once per
 * distinct statement in a build (StatementAnalyses): boilerplate pasted into
 * a thousand files is read once, and each copy only places the findings in
 * its file.
 */
import type { ResolvedSource } from '../resolve/resolve.js';
import { formatSpec } from '../formats/formats.js';
import { authorityOf, type Authority } from './cascade.js';
import { rulesOf } from './rules.js';
import { clausesOf, positionAt, type Statement } from './statements.js';
import { duplicateKeys, normaliseStatement } from './statement-keys.js';
import { headingKeyOf, TOPICS, type Finding } from './topics/index.js';

export interface Located {
  topic: string;
  finding: Finding;
  source: string;
  rule: string;
  line: number;
  col: number;
  excerpt: string;
}

/** One statement long enough to count as duplicated text when it recurs. */
export interface StatementFact {
  at: Located;
  /** The statement as written (lines joined), for token counts. */
  text: string;
  /** Its whole normalised text: the key it is indexed by, or, for its dash-less head, the key of its whole. */
  full: string;
  /** Its position among the source's statements (0-based), to tell a copied block from one copied line. */
  seq: number;
}

export interface SourceFacts {
  id: string;
  /** The file's real identity: a symlink and its target are one file. */
  real: string;
  authority: Authority;
  /** Which agents read the file: 'agents', 'claude', 'gemini', 'copilot', 'cursor'; '*' for managed, user and imported files. */
  family: string;
  /** Topic → key → distinct findings (first occurrence of each value and polarity), in file order. */
  topics: Map<string, Map<string, Located[]>>;
  /** Topic → distinct findings beyond the limit (not compared), and where the first of them is. */
  dropped: Map<string, { count: number; line: number; col: number }>;
  /** Normalised statement text → first occurrence (statements of MIN_DUPLICATE+ characters, and the heads of those that end in a dash remark). */
  statements: Map<string, StatementFact>;
  /** Per statement position, its duplicate keys (those long enough to count). */
  keysAt: string[][];
  /** First rule id and line, for events about the whole file. */
  top: { rule: string; line: number };
}

const EXAMPLE_HEADING = /\bexamples?\b|\bsample\b|\banti-?patterns?\b/i;
/**
 * Shortest normalised statement indexed for duplicates (characters). Short enough for a
 * rule such as "Never commit directly to main" (29); shorter text is mostly headings'
 * kin ("Run the tests.") whose second copy costs nothing worth a finding.
 */
const MIN_DUPLICATE = 28;
/** Default cap on distinct findings per source and topic (policy: conflicts.limits.findings_per_topic). */
export const DEFAULT_FINDINGS_PER_TOPIC = 500;

/**
 * What one statement says, wherever it is written: a function of its text,
 * whether its rule shows examples, and what the extractors read of the
 * headings above it (headingKeyOf), so a paragraph pasted into many files is
 * analysed once per build. Positions are offsets in the statement; each copy
 * places them in its own file.
 */
interface StatementAnalysis {
  norm: string;
  /** Its duplicate keys long enough to count. */
  keys: string[];
  /** Findings in extraction order, with their offsets in the statement. */
  findings: { topic: string; finding: Finding; offset: number }[];
  excerpt: string;
}

/**
 * The statements analysed so far, for one build: pass the same instance to
 * every factsOf() of a build. Findings are shared between the copies of a
 * statement, so they are frozen.
 */
export class StatementAnalyses {
  private readonly memo = new Map<string, StatementAnalysis>();

  of(st: Statement, headings: readonly string[], isExample: boolean): StatementAnalysis {
    const key = `${isExample ? 'x' : ''}\u0000${headingKeyOf(headings)}\u0000${st.text}`;
    let a = this.memo.get(key);
    if (!a) this.memo.set(key, (a = analyse(st, headings, isExample)));
    return a;
  }
}

function analyse(st: Statement, headings: readonly string[], isExample: boolean): StatementAnalysis {
  const norm = normaliseStatement(st.text);
  const keys = duplicateKeys(st.text, norm).filter((k) => k.length >= MIN_DUPLICATE);
  const findings: StatementAnalysis['findings'] = [];
  if (!isExample) {
    const where = { statement: st.text, headings };
    for (const clause of clausesOf(st)) {
      let matched = false;
      for (const t of TOPICS) {
        if (t.fallback && matched) continue;
        const found = t.extract(clause, where);
        if (found.length === 0) continue;
        matched = true;
        // Frozen: every copy of the statement shares it.
        for (const f of found) findings.push({ topic: t.topic, finding: Object.freeze(f), offset: clause.start + f.at });
      }
    }
  }
  return { norm, keys, findings, excerpt: excerptOf(st.text) };
}

export function factsOf(s: ResolvedSource, limit = DEFAULT_FINDINGS_PER_TOPIC, analyses = new StatementAnalyses()): SourceFacts {
  const rules = rulesOf(s.doc);
  const index = new FindingIndex(limit);
  const statements = new Map<string, StatementFact>();
  const keysAt: string[][] = [];
  const id = s.file.id;
  for (const rule of rules) {
    const isExample = rule.headingPath.some((h) => EXAMPLE_HEADING.test(h));
    for (const st of rule.statements) {
      const a = analyses.of(st, rule.headingPath, isExample);
      const seq = keysAt.length;
      keysAt.push(a.keys);
      for (const key of a.keys) {
        if (statements.has(key)) continue;
        statements.set(key, { at: locate('duplicate', { value: key, negated: false, key: '', at: 0 }, id, rule.id, st, 0, a.excerpt), text: st.text, full: a.norm, seq });
      }
      for (const { topic, finding, offset } of a.findings) index.add(topic, finding, () => locate(topic, finding, id, rule.id, st, offset, a.excerpt));
    }
  }
  const first = rules[0];
  return {
    id,
    real: s.file.linkTarget ?? id,
    authority: authorityOf(s),
    family: formatSpec(s.file.format)?.family ?? '*',
    topics: index.topics,
    dropped: index.dropped,
    statements,
    keysAt,
    top: { rule: first?.id ?? '_top', line: first?.line ?? s.doc.bodyLine },
  };
}

/** Distinct findings by topic and key, capped per topic. */
class FindingIndex {
  readonly topics = new Map<string, Map<string, Located[]>>();
  readonly dropped = new Map<string, { count: number; line: number; col: number }>();
  private readonly seen = new Map<string, Set<string>>();

  constructor(private readonly limit: number) {}

  add(topic: string, f: Finding, located: () => Located): void {
    let seen = this.seen.get(topic);
    if (!seen) this.seen.set(topic, (seen = new Set()));
    // A waiver or a presumption is kept beside a prohibition or prescription of the same value: it counts in fewer pairs.
    const sig = `${f.key}\u0000${f.negated ? '-' : '+'}${f.waiver ? 'w' : ''}${f.presumed ? 'p' : ''}${f.value}`;
    if (seen.has(sig)) return;
    if (seen.size >= this.limit) {
      seen.add(sig);
      const d = this.dropped.get(topic);
      if (d) d.count++;
      else {
        const at = located();
        this.dropped.set(topic, { count: 1, line: at.line, col: at.col });
      }
      return;
    }
    seen.add(sig);
    let byKey = this.topics.get(topic);
    if (!byKey) this.topics.set(topic, (byKey = new Map()));
    const list = byKey.get(f.key);
    if (list) list.push(located());
    else byKey.set(f.key, [located()]);
  }
}

function locate(topic: string, finding: Finding, source: string, rule: string, st: Statement, offset: number, excerpt: string): Located {
  const pos = positionAt(st, offset);
  return { topic, finding, source, rule, line: pos.line, col: pos.col, excerpt };
}

export function excerptOf(text: string): string {
  // Collapse only as much of the statement as the excerpt can show: a finding
  // in a 1 MB statement must not normalise the whole statement again.
  let t = '';
  for (let n = 256; ; n *= 2) {
    const whole = n >= text.length;
    t = text.slice(0, n).replace(/\s+/g, ' ').trimStart();
    if (whole) {
      t = t.trimEnd();
      break;
    }
    if (t.length > 121) break;
  }
  return t.length <= 120 ? t : `${t.slice(0, 117)}...`;
}

export { normaliseStatement } from './statement-keys.js';
