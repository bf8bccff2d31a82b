/**
 * indentation: spaces (and how many) or tabs. Needs an indentation word in the
 * clause, so "2 spaces after a period" is not read as a style rule; keyed by
 * the language the clause names (YAML's 2 spaces never meet Go's tabs).
 */
import type { Clause } from '../statements.js';
import type { Finding, TopicExtractor } from './types.js';
import { languageOf, negatedAt } from './text.js';

const CONTEXT = /\bindent(?:ation|ed|s)?\b|\btab[ -]?(?:width|size|stop)\b|\bformatting\b/i;
const SPACES = /\b(\d|two|four|eight)[ -]spaces?\b/gi;
const TABS = /\b(?:hard\s+)?tabs?\b(?![ -]?(?:width|size|stop|key|completion|bar|s? in the (?:browser|ui)))/gi;
const WORD: Record<string, string> = { two: '2', four: '4', eight: '8' };

function extract(clause: Clause): Finding[] {
  if (!/indent|tab|format/i.test(clause.text)) return [];
  const prose = clause.prose;
  if (!CONTEXT.test(prose)) return [];
  const key = languageOf(clause);
  const out: Finding[] = [];
  for (const m of prose.matchAll(SPACES)) {
    const n = WORD[(m[1] ?? '').toLowerCase()] ?? m[1];
    out.push({ value: `${n}-spaces`, negated: negatedAt(clause, m.index ?? 0), key, at: m.index ?? 0 });
  }
  for (const m of prose.matchAll(TABS)) out.push({ value: 'tabs', negated: negatedAt(clause, m.index ?? 0), key, at: m.index ?? 0 });
  return out;
}

export const indentation: TopicExtractor = {
  topic: 'indentation',
  description: 'indent with tabs or with N spaces',
  exclusive: true,
  extract,
};
