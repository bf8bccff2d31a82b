/**
 * directive (fallback): the polarity of an imperative — "never log request
 * bodies" against "log the full request body". Runs only on clauses no other
 * extractor recognised. The subject is the verb and up to five content words
 * after it, stemmed; two subjects meet when the verbs are equal, they share
 * at least two words (or all of a one-word object) and each one's first
 * object word is among the other's: "never run the full suite" and "run the
 * linter" stay apart, and so do "use `jest.mocked()` for type-safe mocks in
 * tests" and "do not use tags in mock tests", which share only where they
 * apply, not what they use.
 */
import type { Clause } from '../statements.js';
import type { Finding, TopicExtractor } from './types.js';
import { LIST_LABEL, stem } from './text.js';

// Each matches only the opening words (anchored, then one whitespace run): the subject is read after it.
const NEG = /^\s*(?:(?:you|agents?)\s+)?(?:must\s+not|mustn't|should\s+not|shouldn't|do\s+not|don't|never|avoid|cannot|can't|may\s+not|are\s+not\s+allowed\s+to|are\s+forbidden\s+to)\s+/i;
const POS = /^\s*(?:(?:you|agents?)\s+)?(?:always|must|should|shall|need\s+to|make\s+sure\s+(?:to|you)|be\s+sure\s+to|please)\s+/i;
const STOP = new Set(['the', 'a', 'an', 'to', 'of', 'in', 'on', 'for', 'with', 'and', 'or', 'your', 'our', 'their', 'its', 'this', 'that', 'these',
  'those', 'it', 'them', 'be', 'is', 'are', 'all', 'every', 'each', 'only', 'directly', 'ever', 'also', 'just', 'any', 'as', 'at', 'by', 'from',
  'into', 'than', 'then', 'so', 'such', 'when', 'if', 'unless', 'more', 'full', 'new', 'existing', 'other', 'own', 'same', 'very', 'even', 'yourself',
  'always', 'never', 'not', 'please', 'explicitly', 'manually', 'unnecessarily', 'unnecessary', 'without', 'use']);
/** Words that open a clause but are not verbs of an instruction. */
const NOT_VERBS = new Set(['this', 'the', 'a', 'an', 'it', 'we', 'they', 'there', 'here', 'see', 'note', 'each', 'every', 'all', 'some', 'most',
  'if', 'when', 'for', 'in', 'on', 'by', 'with', 'and', 'or', 'but', 'so', 'because', 'i', 'my', 'our', 'its', 'these', 'those', 'what', 'how', 'why']);

const WORD = /[a-z0-9'-]+/gi;
/** Longer than any word of prose: a run of dashes or a hash is not an object of an instruction. */
const MAX_WORD = 40;

/**
 * The verb and up to five content words after `from`. Words are matched in
 * place and lowercased one by one, and reading stops at the fifth: a clause
 * of a megabyte costs what its first words cost.
 */
function subjectOf(text: string, from: number): string[] | null {
  WORD.lastIndex = from;
  const verbWord = WORD.exec(text)?.[0].toLowerCase();
  if (!verbWord || verbWord.length > MAX_WORD || NOT_VERBS.has(verbWord) || /^\d/.test(verbWord)) return null;
  const verb = stem(verbWord);
  const objects: string[] = [];
  for (let m = WORD.exec(text); m && objects.length < 5; m = WORD.exec(text)) {
    const word = m[0].toLowerCase();
    if (!STOP.has(word) && word.length > 1 && word.length <= MAX_WORD) objects.push(stem(word));
  }
  WORD.lastIndex = 0;
  return objects.length === 0 ? null : [verb, ...objects];
}

/** A list item's label before the clause's instruction (text.ts). */
const LABEL = new RegExp(String.raw`^\s*${LIST_LABEL}`);

function extract(clause: Clause): Finding[] {
  const prose = clause.prose;
  const lead = prose.search(/\S/);
  if (lead < 0) return [];
  const label = LABEL.exec(prose)?.[0].length ?? 0;
  const body = prose.slice(label);
  const neg = NEG.exec(body);
  const pos = neg ? null : POS.exec(body);
  // A bare imperative ("Log the full request body") counts too: the subject match below keeps it honest.
  // (subjectOf skips what is not a word, so the body's leading space needs no offset of its own.)
  const subject = subjectOf(prose, label + ((neg ?? pos)?.[0].length ?? 0));
  if (!subject) return [];
  return [{ value: subject.join(' '), negated: neg !== null, key: '', at: lead }];
}

/** Same verb, each head object word among the other's objects, and two shared object words (or the whole of a one-word object). */
export function sameSubject(a: string, b: string): boolean {
  const [va, ...oa] = a.split(' ');
  const [vb, ...ob] = b.split(' ');
  if (va !== vb || !ob.includes(oa[0] as string) || !oa.includes(ob[0] as string)) return false;
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
