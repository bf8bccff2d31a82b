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

const BRANCH = /\bbranch(?:es)?\b/i;
/** A quoted template in prose: double quotes (code spans are read from clause.code). */
const QUOTED = /"([^"\s]{3,120})"/g;
const PLACEHOLDER = /<[^<>/\s]{1,40}>|\{[^{}/\s]{1,40}\}/g;
const SHAPE = /^[\w.-]+\/\S+$/;
const FILE = /\.[a-z]{1,5}$/i;

function extract(clause: Clause, where?: ClauseContext): Finding[] {
  if (!clause.text.includes('/')) return [];
  if (!BRANCH.test(where?.statement ?? clause.text) && !(where?.headings ?? []).some((h) => BRANCH.test(h))) return [];
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
  return matcher(a).test(instance(b)) || matcher(b).test(instance(a));
}

const instance = (t: string): string => t.replace(PLACEHOLDER, 'x');
/** Built once per template: detection may test one template against many. */
const matchers = new Map<string, RegExp>();
function matcher(t: string): RegExp {
  let re = matchers.get(t);
  if (!re) {
    if (matchers.size > 10_000) matchers.clear();
    matchers.set(t, (re = new RegExp(`^${t.split(PLACEHOLDER).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[^/]+')}$`, 'i')));
  }
  return re;
}

export const branchName: TopicExtractor = {
  topic: 'branch-name',
  description: 'the template for naming branches (`feat/<ticket>-<slug>`)',
  exclusive: true,
  compatible: templatesAgree,
  extract,
};
