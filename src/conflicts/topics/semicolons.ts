/**
 * semicolons: statements end with semicolons, or never. "No semicolons" and
 * "omit semicolons" forbid them; "use/require semicolons" prescribes them.
 */
import type { Clause } from '../statements.js';
import type { Finding, TopicExtractor } from './types.js';
import { languageOf, negatedAt } from './text.js';

const OMIT = /\b(?:no|without|omit|omitting|drop|avoid)\s+(?:trailing\s+)?semicolons?\b|\bsemicolons?\s+(?:are\s+)?(?:omitted|forbidden|not used)\b|\bsemi:\s*false\b/i;
const USE = /\b(?:use|using|require|always use|add|with|always add|end (?:statements|lines) with)\s+(?:trailing\s+)?semicolons?\b|\bsemicolons?\s+(?:are\s+)?(?:required|mandatory)\b|\bsemi:\s*true\b/i;

function extract(clause: Clause): Finding[] {
  if (!/semi/i.test(clause.text)) return [];
  const key = languageOf(clause);
  const omit = OMIT.exec(clause.text);
  if (omit) return [{ value: 'semicolons', negated: true, key, at: omit.index }];
  const use = USE.exec(clause.text);
  if (use) return [{ value: 'semicolons', negated: negatedAt(clause, use.index + 1), key, at: use.index }];
  return [];
}

export const semicolons: TopicExtractor = {
  topic: 'semicolons',
  description: 'end statements with semicolons, or omit them',
  exclusive: false,
  extract,
};
