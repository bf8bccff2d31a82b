/**
 * commit-convention: how commit messages are written — Conventional Commits
 * (`feat(api): …`), gitmoji, or a `[component]`/`component:` prefix. PR-title
 * rules are keyed apart from commit-message rules.
 */
import type { Clause } from '../statements.js';
import type { Finding, TopicExtractor } from './types.js';
import { negatedAt } from './text.js';

const CONVENTIONS: [RegExp, string][] = [
  [/\bconventional[ -]commits?\b|\bconventional commit (?:format|style|messages?|prefix(?:es)?)\b|\bsemantic commit messages?\b/i, 'conventional'],
  [/\bgitmoji\b/i, 'gitmoji'],
  [/\bprefix(?:ed)?\s+(?:\w+\s+){0,3}?with\s+(?:the\s+)?(?:\w+\s+)?(?:component|module|area|crate|package|subsystem)(?:\s+name)?\b/i, 'component-prefix'],
];
const CONVENTIONAL_EXAMPLE = /^(?:feat|fix|chore|docs|refactor|test|perf|build|ci)(?:\([\w.-]+\))?!?:/;
const ABOUT_COMMITS = /\bcommits?\b|\bcommit messages?\b|\bpr titles?\b|\bpull request titles?\b/i;

/** Words that make a mention of a convention an instruction to follow it. */
const PRESCRIBES = /\b(?:follow|follows|following|use|uses|using|adopt|write|written|format|formatted|start|starts|must|should|look like|prefix|prefixed)\b/i;

function extract(clause: Clause): Finding[] {
  if (!/commit|gitmoji|title/i.test(clause.text)) return [];
  const bare = clause.prose.replace(CONVENTIONS[0]?.[0] as RegExp, ' ');
  if (!ABOUT_COMMITS.test(bare) && !PRESCRIBES.test(bare)) return [];
  const key = /\b(?:pr|pull request) titles?\b/i.test(clause.prose) ? 'pr-title' : '';
  const out: Finding[] = [];
  for (const [re, value] of CONVENTIONS) {
    const m = re.exec(clause.prose);
    if (m) out.push({ value, negated: negatedAt(clause, m.index), key, at: m.index });
  }
  if (!out.some((f) => f.value === 'conventional')) {
    const span = clause.code.find((c) => CONVENTIONAL_EXAMPLE.test(c.content));
    if (span) out.push({ value: 'conventional', negated: negatedAt(clause, span.start), key, at: span.start });
  }
  return out;
}

export const commitConvention: TopicExtractor = {
  topic: 'commit-convention',
  description: 'the commit-message convention: Conventional Commits, gitmoji, component prefix',
  exclusive: true,
  extract,
};
