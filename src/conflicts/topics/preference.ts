/**
 * preference: where a rule ranks one option, from the annotation right after
 * it — "`data-testid` attributes (preferred)" against "accessibility selectors >
 * `data-testid` (last resort)". The option is the inline code span, else the
 * bold term, that ends at most a few words before a parenthesised "preferred"
 * or "recommended" (value `preferred`) or "last resort", "fallback", "avoid",
 * "discouraged", "not recommended" (value `last-resort`); it is the key, so
 * only rankings of the same option are compared. Exclusive: one file's
 * preferred option is another's last resort.
 */
import type { Clause } from '../statements.js';
import type { Finding, TopicExtractor } from './types.js';

const ANNOTATION = /\(\s*(preferred|recommended|last[ -]resort|fallback|avoid|discouraged|not recommended)\s*\)/gi;
/** How far before the annotation the option may end ("`data-testid` for component testing (preferred)"). */
const REACH = 32;
const BOLD = /\*\*([^*]{1,60})\*\*\s*$/;

function extract(clause: Clause): Finding[] {
  if (!clause.prose.includes('(')) return [];
  const out: Finding[] = [];
  // Annotations and code spans are both in offset order: one pointer walks the spans (linear in both).
  let next = 0;
  for (const m of clause.prose.matchAll(ANNOTATION)) {
    const at = m.index;
    while (next < clause.code.length && (clause.code[next] as Clause['code'][number]).end < at) next++;
    const option = optionBefore(clause, at, clause.code[next - 1]);
    if (option === null) continue;
    const word = (m[1] as string).toLowerCase();
    out.push({ value: word === 'preferred' || word === 'recommended' ? 'preferred' : 'last-resort', negated: false, key: option, at });
  }
  return out;
}

/** The code span (`span`, the last one before `at`), else the bold term, that ends within REACH characters before `at`, with no parenthesis between. */
function optionBefore(clause: Clause, at: number, span: Clause['code'][number] | undefined): string | null {
  // A code span's end is the offset of its closing backtick(s).
  if (span && at - span.end <= REACH && !/[()]/.test(clause.prose.slice(span.end + 1, at))) return normalise(span.content);
  const bold = BOLD.exec(clause.text.slice(Math.max(0, at - 64), at));
  return bold ? normalise(bold[1] as string) : null;
}

const normalise = (option: string): string => option.trim().toLowerCase().replace(/\s+/g, ' ');

export const preference: TopicExtractor = {
  topic: 'preference',
  description: 'an option marked preferred in one rule and a last resort in another',
  exclusive: true,
  extract,
};
