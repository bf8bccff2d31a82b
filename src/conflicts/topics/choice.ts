/**
 * choice: which of two named options to use, where one rule ranks them and
 * another tells the agent to use the one ranked lower — "Prefer `type` over
 * `interface` for props" against "Use `interface` for extendable object
 * contracts". The value is the option (a code span's content).
 *
 * 1. A ranking — "prefer/use/choose `A` over/instead of/rather than `B`" —
 *    prescribes A and speaks against B. Only a ranking speaks against an
 *    option here: a bare "avoid `any`" is not read as one, since files
 *    commonly carve out exceptions to it ("use `any` type for mocks").
 * 2. An imperative that opens the clause — "Use `A` …", "Prefer `A` …", after
 *    a list label or "always" — prescribes A, unless the clause makes it
 *    conditional ("use `useQuery` when the query needs conditional
 *    enabling"): an exception the ranking's author may well share.
 * 3. Commands and tools (`pnpm`, `npm run lint`) and spans with spaces are not
 *    options here: the package-manager and command topics compare those.
 * Code spans are visited once, in order: linear in the clause.
 */
import type { Clause } from '../statements.js';
import type { Finding, TopicExtractor } from './types.js';
import { endsWith, LIST_LABEL, negatedAt } from './text.js';
import { normaliseCommand } from './command.js';

type Span = Clause['code'][number];

/** Between the two options of a ranking: only "over", "instead of" or "rather than" (and emphasis). */
const BETWEEN = /^[\s*_]*(?:over|instead\s+of|rather\s+than)[\s*_]*$/i;
/** Right before the first option of a ranking. */
const RANKS = /\b(?:prefer|use|choose|favou?r|pick)\s*[*_]*$/i;
/** A clause that opens with "use/prefer `A`": a label, "always", "you should" … may come first. */
const OPENS_USE = new RegExp(String.raw`^\s*(?:${LIST_LABEL})?[*_]{0,2}(?:(?:always|please|you\s+should|you\s+must|should|must)\s+)?(?:use|prefer)\s*[*_]*$`, 'i');
/** Words that make an imperative conditional or an exception. */
const CONDITIONAL = /\b(?:when|whenever|if|unless|only|except|where|while)\b/i;
const MAX_OPTION = 60;

function optionOf(span: Span): string | null {
  const c = span.content.replace(/\(\)$/, '');
  if (c === '' || c.length > MAX_OPTION || /\s/.test(c) || normaliseCommand(c) !== null) return null;
  return c;
}

function extract(clause: Clause): Finding[] {
  if (clause.code.length === 0 || !/\b(?:use|prefer|choose|favou?r|pick)\b/i.test(clause.prose)) return [];
  const out: Finding[] = [];
  const spans = clause.code;
  // Code spans are blanked in `prose` (ticks too), so the prose around a span is read as it stands.
  for (let i = 0; i < spans.length; i++) {
    const a = spans[i] as Span;
    const b = spans[i + 1];
    const before = clause.prose.slice(Math.max(0, a.start - 64), a.start);
    if (b && endsWith(before, RANKS, 24) && BETWEEN.test(clause.prose.slice(a.end, b.start))) {
      const [first, second] = [optionOf(a), optionOf(b)];
      if (first !== null && second !== null && !negatedAt(clause, a.start)) {
        out.push({ value: first, negated: false, key: '', at: a.start }, { value: second, negated: true, key: '', at: b.start });
      }
      i++;
      continue;
    }
    if (i === 0 && a.start <= 64 && OPENS_USE.test(before) && !CONDITIONAL.test(clause.prose.slice(a.end))) {
      const option = optionOf(a);
      if (option !== null) out.push({ value: option, negated: false, key: '', at: a.start });
    }
  }
  return out;
}

export const choice: TopicExtractor = {
  topic: 'choice',
  description: 'an option one rule ranks below another ("prefer `type` over `interface`") and another rule says to use',
  exclusive: false,
  extract,
};
