/**
 * Facts of one source: what each of its rules says, by topic, with positions.
 *
 * 1. Split the source into rules (rules.ts) and each rule into statements and
 *    clauses (statements.ts). Rules under an "Example(s)" heading are skipped:
 *    they show, they do not prescribe.
 * 2. Run every specific extractor on each clause; run fallbacks only on clauses
 *    no specific extractor matched.
 * 3. Keep each distinct finding (topic, key, value, polarity) once, at its first
 *    occurrence, indexed by topic and key: detection compares only findings
 *    that share both. At most `limit` distinct findings per topic are kept; the
 *    number dropped is recorded so the caller can say so (RC3105).
 * 4. Index each long statement by its normalised text, for duplicate detection.
 */
import type { ResolvedSource } from '../resolve/resolve.js';
import { formatSpec } from '../formats/formats.js';
import { authorityOf, type Authority } from './cascade.js';
import { rulesOf } from './rules.js';
import { clausesOf, maskCode, positionAt, type Statement } from './statements.js';
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

/** One statement long enough to count as duplicated text when it recurs. */
export interface StatementFact {
  at: Located;
  /** The statement as written (lines joined), for token counts. */
  text: string;
  /** Its whole normalised text: the key it is indexed by, or, for its dash-less head, the key of its whole. */
  full: string;
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

export function factsOf(s: ResolvedSource, limit = DEFAULT_FINDINGS_PER_TOPIC): SourceFacts {
  const rules = rulesOf(s.doc);
  const index = new FindingIndex(limit);
  const statements = new Map<string, StatementFact>();
  for (const rule of rules) {
    const isExample = rule.headingPath.some((h) => EXAMPLE_HEADING.test(h));
    for (const st of rule.statements) {
      const norm = normaliseStatement(st.text);
      // Indexed by its whole text, without its fillers, and by the parts a spaced dash splits it into.
      const { head, tail } = statementParts(st.text);
      for (const key of new Set([norm, withoutFillers(norm), head ?? norm, tail ?? norm])) {
        if (key.length < MIN_DUPLICATE || statements.has(key)) continue;
        statements.set(key, { at: locate('duplicate', { value: key, negated: false, key: '', at: 0 }, s.file.id, rule.id, st, 0), text: st.text, full: norm });
      }
      if (isExample) continue;
      for (const clause of clausesOf(st)) {
        let matched = false;
        for (const t of TOPICS) {
          if (t.fallback && matched) continue;
          const found = t.extract(clause);
          if (found.length === 0) continue;
          matched = true;
          for (const f of found) index.add(t.topic, f, () => locate(t.topic, f, s.file.id, rule.id, st, clause.start + f.at));
        }
      }
    }
  }
  const first = rules[0];
  return {
    id: s.file.id,
    real: s.file.linkTarget ?? s.file.id,
    authority: authorityOf(s),
    family: formatSpec(s.file.format)?.family ?? '*',
    topics: index.topics,
    dropped: index.dropped,
    statements,
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
    const sig = `${f.key}\u0000${f.negated ? '-' : '+'}${f.value}`;
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

function locate(topic: string, finding: Finding, source: string, rule: string, st: Statement, offset: number): Located {
  const pos = positionAt(st, offset);
  return { topic, finding, source, rule, line: pos.line, col: pos.col, excerpt: excerptOf(st.text) };
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

/**
 * What makes two statements "the same text": case, punctuation, Markdown
 * emphasis and code ticks, whitespace and a trailing parenthesised remark are
 * ignored. "Run **all** tests before you push (CI checks it)." and
 * "run all tests before you push" are one statement.
 */
export function normaliseStatement(text: string): string {
  const plain = text.toLowerCase().replace(/[*_`~]+/g, '');
  // Scans instead of the chain of global replaces this stands for (the test keeps them): those made
  // a match object per separator, and on a statement of a few hundred thousand words the garbage
  // cost more than the work.
  const end = trailingGroupStart(plain);
  const words: string[] = [];
  let start = -1;
  for (let i = 0; i <= end;) {
    const width = i < end ? charWidth(plain, i) : 1;
    if (i < end && isWordChar(plain, i, width)) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      words.push(plain.slice(start, i));
      start = -1;
    }
    i += width;
  }
  return words.join(' ');
}

/**
 * Where a balanced parenthesised remark that ends the text begins ("… before
 * you push (CI checks it)."), or the text's length: only at the very end, and
 * never when the group is the whole statement.
 */
function trailingGroupStart(s: string): number {
  let last = s.length - 1;
  while (last >= 0 && isSeparator(s, last)) last--;
  if (s[last] !== ')') return s.length;
  let depth = 0;
  for (let i = last; i >= 0; i--) {
    if (s[i] === ')') depth++;
    else if (s[i] === '(' && --depth === 0) {
      let first = 0;
      while (first < i && isSeparator(s, first)) first++;
      return first === i ? s.length : i;
    }
  }
  return s.length;
}

/** Neither a word character nor a parenthesis (code units; a surrogate pair is a word character or neither, on either half). */
function isSeparator(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  if (c === 0x28 || c === 0x29) return false;
  if (c >= 0xdc00 && c <= 0xdfff && i > 0 && charWidth(s, i - 1) === 2) return !isWordChar(s, i - 1, 2);
  return !isWordChar(s, i, charWidth(s, i));
}

function charWidth(s: string, i: number): 1 | 2 {
  const c = s.charCodeAt(i);
  const next = s.charCodeAt(i + 1);
  return c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
}

function isWordChar(s: string, i: number, width: 1 | 2): boolean {
  const c = s.charCodeAt(i);
  return c < 128 ? ASCII_WORD[c] === 1 : WORD_CHAR.test(s.slice(i, i + width));
}

const WORD_CHAR = /^[\p{L}\p{M}\p{N}]$/u;
const ASCII_WORD = new Uint8Array(128);
for (let c = 0; c < 128; c++) ASCII_WORD[c] = /[a-zA-Z0-9]/.test(String.fromCharCode(c)) ? 1 : 0;


/**
 * Words that intensify without changing what a statement asks: "**ALWAYS**
 * run X before committing any changes" repeats "Run X before committing
 * changes". Not negations, modals or quantities ("never", "must", "all"),
 * and not where the word carries meaning: "always" after a negation ("you do
 * not always need to …"), "any" after a preposition ("in any order", "at any
 * time").
 */
const FILLERS = new Set(['always', 'any', 'please']);
/** One of FILLERS as a word of a normalised statement: most statements have none, and are not split at all. */
const HAS_FILLER = /(?:^| )(?:always|any|please)(?= |$)/;
const KEEPS_AFTER: Record<string, ReadonlySet<string>> = {
  always: new Set(['not', 't', 'never', 'no']),
  any: new Set(['in', 'at', 'by', 'of', 'for', 'from', 'with', 'to', 'on', 'without', 'under', 'into']),
};

/** A normalised statement without its filler words (the statement itself when it has none). */
export function withoutFillers(norm: string): string {
  if (!HAS_FILLER.test(norm)) return norm;
  const words = norm.split(' ');
  return words.filter((w, i) => !FILLERS.has(w) || (KEEPS_AFTER[w]?.has(words[i - 1] ?? '') ?? false)).join(' ');
}

/**
 * A spaced dash splits "**Never commit to `main`** — a hook enforces this"
 * into a head and a remark. The head is also a statement of its own (the
 * rule without its reason) when the remark holds no code or the head is
 * itself an instruction: "Use the formatter — `pnpm format`" is not the
 * statement "Use the formatter", while "New features must be opt-in by
 * default - extend `Options`" does state "New features must be opt-in by
 * default". The remark is a statement of its own when it is an instruction:
 * "Forgetting the spec — reviewers must see a diff". Normalised; null for a
 * part that is not one, and for both in a table row (a dash there separates
 * a cell's description). The first spaced dash outside code spans: one scan.
 */
export function statementParts(text: string): { head: string | null; tail: string | null } {
  if (text.includes('|')) return NONE;
  const prose = maskCode(text).prose;
  const m = /\s[—–-]\s/.exec(prose);
  if (m === null) return NONE;
  const head = normaliseStatement(text.slice(0, m.index));
  const remark = text.slice(m.index + m[0].length);
  const tail = normaliseStatement(remark);
  return { head: !remark.includes('`') || INSTRUCTION.test(head) ? head : null, tail: INSTRUCTION.test(tail) ? tail : null };
}

const NONE = { head: null, tail: null };
/** A normalised statement that instructs: a modal or an imperative of obligation. */
const INSTRUCTION = /(?:^| )(?:must|should|shall|never|always|required|avoid|do not|don t)(?= |$)/;

