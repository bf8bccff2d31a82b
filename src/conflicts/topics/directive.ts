/**
 * directive (fallback): the polarity of an imperative — "never log request
 * bodies" against "log the full request body". Runs only on clauses no other
 * extractor recognised. The subject is the verb and up to five content words
 * after it, stemmed; two subjects meet when the verbs are equal and they share
 * at least two words (or all of a one-word object), so "never run the full
 * suite" and "run the linter" stay apart.
 */
import type { Clause } from '../statements.js';
import type { Finding, TopicExtractor } from './types.js';
import { stem } from './text.js';

const NEG = /^\s*(?:(?:you|agents?)\s+)?(?:must\s+not|mustn't|should\s+not|shouldn't|do\s+not|don't|never|avoid|cannot|can't|may\s+not|are\s+not\s+allowed\s+to|are\s+forbidden\s+to)\s+(.*)$/i;
const POS = /^\s*(?:(?:you|agents?)\s+)?(?:always|must|should|shall|need\s+to|make\s+sure\s+(?:to|you)|be\s+sure\s+to|please)\s+(.*)$/i;
const STOP = new Set(['the', 'a', 'an', 'to', 'of', 'in', 'on', 'for', 'with', 'and', 'or', 'your', 'our', 'their', 'its', 'this', 'that', 'these',
  'those', 'it', 'them', 'be', 'is', 'are', 'all', 'every', 'each', 'only', 'directly', 'ever', 'also', 'just', 'any', 'as', 'at', 'by', 'from',
  'into', 'than', 'then', 'so', 'such', 'when', 'if', 'unless', 'more', 'full', 'new', 'existing', 'other', 'own', 'same', 'very', 'even', 'yourself',
  'always', 'never', 'not', 'please', 'explicitly', 'manually', 'unnecessarily', 'unnecessary', 'without', 'use']);
/** Words that open a clause but are not verbs of an instruction. */
const NOT_VERBS = new Set(['this', 'the', 'a', 'an', 'it', 'we', 'they', 'there', 'here', 'see', 'note', 'each', 'every', 'all', 'some', 'most',
  'if', 'when', 'for', 'in', 'on', 'by', 'with', 'and', 'or', 'but', 'so', 'because', 'i', 'my', 'our', 'its', 'these', 'those', 'what', 'how', 'why']);
const GERUND = /ing$/;

const WORD = /[a-z0-9'-]+/g;

/** The verb and up to five content words after it; words are read only as far as needed, never the whole clause. */
function subjectOf(rest: string): string[] | null {
  const text = rest.toLowerCase();
  WORD.lastIndex = 0;
  const verbWord = WORD.exec(text)?.[0];
  if (!verbWord || NOT_VERBS.has(verbWord) || /^\d/.test(verbWord)) return null;
  const verb = stem(GERUND.test(verbWord) ? verbWord : verbWord);
  const objects: string[] = [];
  for (let m = WORD.exec(text); m && objects.length < 5; m = WORD.exec(text)) {
    if (!STOP.has(m[0]) && m[0].length > 1) objects.push(stem(m[0]));
  }
  WORD.lastIndex = 0;
  return objects.length === 0 ? null : [verb, ...objects];
}

/**
 * How much of a clause the subject is read from: the verb and five content
 * words sit at its start, and copying and lowercasing a whole clause of a
 * megabyte for them made the garbage collector, not the reading, the cost.
 */
const HEAD_CHARS = 4096;

function extract(clause: Clause): Finding[] {
  const prose = clause.prose.slice(0, HEAD_CHARS).replace(/\s+/g, ' ');
  const lead = prose.length - prose.trimStart().length;
  const neg = NEG.exec(prose);
  const pos = neg ? null : POS.exec(prose);
  const rest = neg?.[1] ?? pos?.[1] ?? prose;
  // A bare imperative ("Log the full request body") counts too: the subject match below keeps it honest.
  const subject = subjectOf(rest);
  if (!subject) return [];
  return [{ value: subject.join(' '), negated: neg !== null, key: '', at: lead }];
}

/** Same verb, and two shared object words (or the whole of a one-word object). */
export function sameSubject(a: string, b: string): boolean {
  const [va, ...oa] = a.split(' ');
  const [vb, ...ob] = b.split(' ');
  if (va !== vb) return false;
  const shared = oa.filter((w) => ob.includes(w)).length;
  return shared >= 2 || (shared === 1 && (oa.length === 1 || ob.length === 1) && oa.length === ob.length);
}

export const directive: TopicExtractor = {
  topic: 'directive',
  description: 'always/never on the same subject (fallback when no specific topic matches)',
  fallback: true,
  exclusive: false,
  extract,
  compatible: sameSubject,
  // sameSubject requires the same verb (the first word of the value) and a shared object word.
  buckets: (value: string) => {
    const [verb, ...objects] = value.split(' ');
    return objects.map((w) => `${verb} ${w}`);
  },
};
