/**
 * branch-policy: whether to push, force-push, or commit straight to the main
 * branch. Keyed by what the rule is about: 'main' (direct commits or pushes to
 * main/master), 'force' (force-pushing), '' (pushing at all). "Never push to
 * main" and "push your branch" are about different things and never meet.
 * Only instructions count: the verb must open the clause (after "always",
 * "you may" …) or follow a negation directly, so "GitHub Apps push branches
 * into this repository" describes and is skipped.
 */
import type { Clause } from '../statements.js';
import type { Finding, TopicExtractor } from './types.js';

const LEAD = String.raw`(?:(?:always|please|then|finally|just|only|you\s+(?:may|can|should|must|are\s+allowed\s+to)|feel\s+free\s+to|it\s+is\s+(?:ok|fine)\s+to|go\s+ahead\s+and|run|use)\s+)*`;
const NEG = String.raw`(?:never|do\s+not|don't|must\s+not|mustn't|should\s+not|shouldn't|cannot|can't|may\s+not|avoid)\s+(?:ever\s+)?(?:run\s+|use\s+)?`;
const VERB_MAIN = String.raw`(?:push|pushing|commit|committing|merge|merging)\b(?:\s+[\w-]+){0,3}?\s+(?:directly\s+|straight\s+)?(?:to|into|on|onto)\s+(?:the\s+)?(?:main|master|trunk|default)\b`;
const VERB_FORCE = String.raw`(?:force[- ]?push(?:ing)?|(?:git\s+)?push\s+(?:--force(?:-with-lease)?|-f))\b`;
const VERB_PUSH = String.raw`(?:git\s+)?push(?:ing)?\b(?!\s+(?:notifications?|events?|back\b))`;

const rule = (verb: string): [RegExp, RegExp] => [
  new RegExp(String.raw`^\s*(?:[\w']+\s+){0,3}?${NEG}${verb}`, 'i'),
  new RegExp(String.raw`^\s*${LEAD}${verb}`, 'i'),
];
const RULES: [string, string, [RegExp, RegExp]][] = [
  ['main', 'direct-to-main', rule(VERB_MAIN)],
  ['force', 'force-push', rule(VERB_FORCE)],
  ['', 'push', rule(VERB_PUSH)],
];
const PR_ONLY = /^\s*(?:always|only)\s+(?:\w+\s+){0,3}?(?:via|through|with)\s+(?:a\s+)?(?:pull request|pr|merge request)\b/i;

function extract(clause: Clause): Finding[] {
  if (!/push|commit|merg/i.test(clause.text)) return [];
  const text = clause.text.replace(/`/g, ' ');
  for (const [key, value, [neg, pos]] of RULES) {
    const n = neg.exec(text);
    if (n) return [{ value, negated: true, key, at: n.index }];
    const p = pos.exec(text);
    if (p) return [{ value, negated: false, key, at: p.index }];
  }
  const pr = PR_ONLY.exec(clause.prose);
  if (pr && /\b(?:merge|land|change|commit)/i.test(clause.prose)) return [{ value: 'direct-to-main', negated: true, key: 'main', at: pr.index }];
  return [];
}

export const branchPolicy: TopicExtractor = {
  topic: 'branch-policy',
  description: 'pushing, force-pushing and committing directly to the main branch',
  exclusive: false,
  extract,
};
