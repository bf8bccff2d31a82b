/**
 * branch-policy: whether to push, force-push, or commit straight to the main
 * branch. Keyed by what the rule is about: 'main' (direct commits or pushes to
 * main/master), 'force' (force-pushing), '' (pushing at all). "Never push to
 * main" and "push your branch" are about different things and never meet.
 */
import type { Clause } from '../statements.js';
import type { Finding, TopicExtractor } from './types.js';
import { negatedAt } from './text.js';

const TO_MAIN = /\b(?:push|pushing|pushes|commit|committing|commits|merge|merging)\b(?:\s+\w+){0,3}?\s+(?:directly\s+|straight\s+)?(?:to|into|on|onto)\s+(?:the\s+)?`?(?:main|master|trunk|default)\b`?(?:\s+branch)?/i;
const FORCE = /\bforce[- ]?push(?:es|ing|ed)?\b|\bpush\s+(?:--force|-f)\b|\bgit push (?:--force|-f)\b/i;
const PUSH = /\b(?:git\s+)?push(?:es|ing)?\b(?!\s+(?:notifications?|events?|back\b))/i;
const PR_ONLY = /\b(?:always|only)\s+(?:\w+\s+){0,3}?(?:via|through|with)\s+(?:a\s+)?(?:pull request|pr|merge request)\b/i;

function extract(clause: Clause): Finding[] {
  const text = clause.text.replace(/`/g, ' ');
  const main = TO_MAIN.exec(text);
  if (main) return [{ value: 'direct-to-main', negated: negatedAt(clause, main.index + 1), key: 'main', at: main.index }];
  const pr = PR_ONLY.exec(clause.prose);
  if (pr && /\b(?:merge|land|change|commit)/i.test(clause.prose)) return [{ value: 'direct-to-main', negated: true, key: 'main', at: pr.index }];
  const force = FORCE.exec(text);
  if (force) return [{ value: 'force-push', negated: negatedAt(clause, force.index + 1), key: 'force', at: force.index }];
  const push = PUSH.exec(text);
  if (push && !/\bpush\s+(?:notification|event)/i.test(text)) return [{ value: 'push', negated: negatedAt(clause, push.index + 1), key: '', at: push.index }];
  return [];
}

export const branchPolicy: TopicExtractor = {
  topic: 'branch-policy',
  description: 'pushing, force-pushing and committing directly to the main branch',
  exclusive: false,
  extract,
};
