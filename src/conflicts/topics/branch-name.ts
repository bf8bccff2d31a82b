/**
 * branch-name: the template a rule gives for naming branches —
 * `publish/<package>-release-<MM-DD>` against "the name must follow the
 * pattern "publish/http-client-java-<version>"". A template is a code span or
 * a double-quoted string with a `/` and a `<placeholder>` (or `{placeholder}`),
 * not ending in a file extension, in a statement or under a heading that
 * speaks of branches. It is keyed by its first segment (`publish`), so only
 * templates for one kind of branch are compared; two are compatible when
 * either one matches an instance of the other (a placeholder matches
 * within one segment). Not an equivalence, so, like runtime versions,
 * templates of one kind are compared pairwise: at most
 * conflicts.limits.findings_per_topic² cheap tests.
 */
import type { Clause } from '../statements.js';
import type { ClauseContext, Finding, TopicExtractor } from './types.js';
import { negatedAt } from './text.js';
import { ANY, STAR, wildMatch, type WildToken } from '../../util/wild-match.js';

const BRANCH = /\bbranch(?:es)?\b/i;
/** A quoted template in prose: double quotes (code spans are read from clause.code). */
const QUOTED = /"([^"\s]{3,120})"/g;
const PLACEHOLDER = /<[^<>/\s]{1,40}>|\{[^{}/\s]{1,40}\}/g;
const SHAPE = /^[\w.-]+\/\S+$/;
const FILE = /\.[a-z]{1,5}$/i;

/**
 * Whether a statement speaks of branches, remembered for the statement last asked about: every
 * clause of a statement asks, and scanning the whole statement once per clause made a long
 * paragraph of short clauses quadratic.
 */
let lastStatement: string | null = null;
let lastAnswer = false;
function speaksOfBranches(statement: string): boolean {
  if (statement !== lastStatement) {
    lastStatement = statement;
    lastAnswer = BRANCH.test(statement);
  }
  return lastAnswer;
}

/** Whether a heading above the clause speaks of branches: all extract() reads of the headings. */
function headingKey(headings: readonly string[]): string {
  return headings.some((h) => BRANCH.test(h)) ? 'branches' : '';
}

function extract(clause: Clause, where?: ClauseContext): Finding[] {
  if (!clause.text.includes('/')) return [];
  if (!speaksOfBranches(where?.statement ?? clause.text) && headingKey(where?.headings ?? []) === '') return [];
  const candidates = [
    ...clause.code.map((c) => ({ text: c.content, at: c.start })),
    ...[...clause.prose.matchAll(QUOTED)].map((m) => ({ text: m[1] as string, at: m.index + 1 })),
  ];
  const out: Finding[] = [];
  for (const c of candidates) {
    const t = c.text.trim();
    const holes = t.match(PLACEHOLDER)?.length ?? 0;
    // Short, with a few placeholders: a template, not a command line (and its matcher stays cheap).
    if (t.length > 120 || holes === 0 || holes > 4 || !SHAPE.test(t) || FILE.test(t)) continue;
    out.push({ value: t, negated: negatedAt(clause, c.at), key: t.slice(0, t.indexOf('/')), at: c.at });
  }
  return out;
}

/** Either template matches an instance of the other. */
export function templatesAgree(a: string, b: string): boolean {
  return matches(a, instance(b)) || matches(b, instance(a));
}

const instance = (t: string): string => t.replace(PLACEHOLDER, 'x');

/**
 * Whether `text` is an instance of `template` (case-insensitive): the same number of `/`
 * segments, each placeholder standing for one or more characters within its segment. A
 * wildcard match with one remembered star, never a regular expression: placeholders side by
 * side (`p/<a><b><c>`) made the regex backtrack polynomially, and a pull request controls both.
 */
function matches(template: string, text: string): boolean {
  const pattern = template.toLowerCase().split('/');
  const segments = text.toLowerCase().split('/');
  if (pattern.length !== segments.length) return false;
  return pattern.every((seg, i) => wildMatch(tokens(seg), segments[i] as string));
}

/** A segment's literal characters, and for each placeholder one character or more (ANY, STAR). */
function tokens(segment: string): WildToken[] {
  const out: WildToken[] = [];
  segment.split(PLACEHOLDER).forEach((literal, i) => {
    if (i > 0) out.push(ANY, STAR);
    for (const ch of literal) out.push(ch);
  });
  return out;
}

export const branchName: TopicExtractor = {
  topic: 'branch-name',
  description: 'the template for naming branches (`feat/<ticket>-<slug>`)',
  exclusive: true,
  compatible: templatesAgree,
  extract,
  headingKey,
};
