/** quote-style: single or double quotes for strings, keyed by the language the clause names. */
import type { Clause } from '../statements.js';
import type { Finding, TopicExtractor } from './types.js';
import { languageOf, negatedAt } from './text.js';

const QUOTES = /\b(single|double)[ -]quot(?:es|e|ed|ing)\b/gi;
const CONTEXT = /\bstrings?\b|\bstyle\b|\bprefer\b|\bformatting\b|\bprettier\b|\bliterals?\b|\bimports?\b|\bjsx\b/i;

function extract(clause: Clause): Finding[] {
  if (!/quot/i.test(clause.text)) return [];
  if (!CONTEXT.test(clause.prose)) return [];
  const key = languageOf(clause);
  return [...clause.prose.matchAll(QUOTES)].map((m) => ({
    value: (m[1] ?? '').toLowerCase(), negated: negatedAt(clause, m.index ?? 0), key, at: m.index ?? 0,
  }));
}

export const quoteStyle: TopicExtractor = {
  topic: 'quote-style',
  description: 'single or double quotes for string literals',
  exclusive: true,
  extract,
};
