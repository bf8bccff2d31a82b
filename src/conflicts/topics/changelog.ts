/**
 * changelog: whether a change gets a changelog entry (a changeset, a
 * CHANGELOG.md entry). "Run `pnpm chronus add` to add a changelog entry" and
 * "you MUST create a changeset file" prescribe one; "do not add a changeset"
 * forbids it; "there is no need to add change logs" waives it (a waiver: a
 * narrower file that asks for an entry where a broader one waives it adds an
 * obligation, it lifts no guard).
 *
 * Only instructions count: the verb opens the clause (after a label, "always",
 * "you must" …, or "run `tool` to"), and its object is the changelog itself —
 * "do not add `"pnpm"` to a Rust-only changeset" adds something to a
 * changeset, it does not forbid one. A prohibition or waiver with a qualifier
 * after it ("… for internal refactors", "… when only tests change") or a
 * condition before it ("if you only fixed a typo, …") exempts some changes,
 * not the package, and is skipped. Every pattern is anchored at
 * the clause start with bounded gaps: one pass per clause.
 */
import type { Clause } from '../statements.js';
import type { ClauseContext, Finding, TopicExtractor } from './types.js';
import { LIST_LABEL } from './text.js';

/** A list item's label ("**Changelog** —" is cut by the clause split; "**Changelog:**" is not). */
const LABEL = String.raw`(?:${LIST_LABEL})?`;
const NOUN = String.raw`(?:[\w.-]+\/){0,4}(?:change[- ]?logs?|changesets?)(?:\.md)?(?:\s+(?:entry|entries|files?))?`;
const OBJECT = String.raw`(?:(?:a|an|the|one|new|separate|your|its|any)\s+){0,3}(?:${NOUN}|(?:entry|entries)\s+(?:to|in|into)\s+(?:the\s+)?${NOUN})\b`;
const VERB = String.raw`(?:add|create|write|include|update|record)`;
const MODAL = String.raw`(?:(?:always|please|then|also|just|you\s+(?:must|should)|must|should|make\s+sure\s+(?:to|you))\s+)*`;
// The command starts at a non-space: a gap that could also be blanks would split a run of spaces
// between it and the `\s+` around it every possible way (quadratic on a line of spaces).
const RUN_TO = String.raw`(?:run\s+\S[^.;]{0,79}?\s+to\s+)?`;

const PRESCRIBE = new RegExp(String.raw`^\s*${LABEL}${MODAL}${RUN_TO}${VERB}\s+${OBJECT}`, 'i');
const FORBID = new RegExp(String.raw`^\s*${LABEL}(?:(?:you|agents?)\s+)?(?:do\s+not|don't|never|must\s+not|should\s+not|avoid)\s+(?:ever\s+)?${VERB}(?:ing)?\s+${OBJECT}`, 'i');
const WAIVE = new RegExp(String.raw`^\s*${LABEL}(?:(?:there\s+is|there's)\s+)?(?:also\s+)?(?:no\s+need\s+to|(?:you\s+)?(?:do\s+not|don't)\s+(?:need|have)\s+to|(?:it\s+is\s+)?not\s+(?:necessary|required)\s+to)\s+${VERB}\s+${OBJECT}`, 'i');
/** What may follow an unqualified prohibition or waiver: nothing, or the place it is said for. */
const UNQUALIFIED = /^[\s.,!*)]*(?:(?:here|(?:in|for)\s+(?:this|these)\s+[\w-]+)[\s.,!*)]*)?$/i;

function extract(clause: Clause, where?: ClauseContext): Finding[] {
  if (!/change[- ]?log|changeset/i.test(clause.text)) return [];
  // Code ticks and emphasis are read as spaces (same length): `CHANGELOG.md`, do **NOT** add.
  const text = clause.text.replace(/[`*]/g, ' ');
  const lead = text.search(/\S/);
  // A leading condition ("If you only fixed a typo,") is blanked in clause.text: the raw clause still has it.
  const conditional = where !== undefined && where.statement.slice(clause.start, clause.start + lead).trim() !== '';
  for (const [re, negated, waiver] of [[FORBID, true, false], [WAIVE, true, true]] as const) {
    const m = re.exec(text);
    if (m === null) continue;
    if (conditional || !UNQUALIFIED.test(text.slice(m[0].length))) return [];
    return [{ value: 'changelog entry', negated, key: '', at: lead, ...(waiver ? { waiver: true as const } : {}) }];
  }
  return PRESCRIBE.test(text) ? [{ value: 'changelog entry', negated: false, key: '', at: lead }] : [];
}

export const changelog: TopicExtractor = {
  topic: 'changelog',
  description: 'whether a change gets a changelog entry or changeset: prescribed, forbidden or waived',
  exclusive: false,
  extract,
};
