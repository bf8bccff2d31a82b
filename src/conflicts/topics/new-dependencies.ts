/**
 * new-dependencies: whether the agent adds new third-party dependencies on
 * its own, or only with a human's approval.
 *
 * Restrictions (negated): "do not add a dependency … without an explicit
 * human request", "do not introduce new dependencies", "adding a new
 * third-party crate requires an explicit human request", "ask before adding
 * new dependencies". A prohibition needs the dependency to be new or
 * third-party, or an approval it waits for: "don't add a dependency for a job
 * an existing utility does" asks for reuse, not for approval.
 *
 * Permissions: "you may add new dependencies" prescribes. Placement rules
 * presume: "when adding a new dependency, add it to the most specific
 * package", "add a new dependency to the crate that needs it" take for granted
 * that the agent adds one (presumed: reported only when a narrower or
 * higher-ranked file restricts it; a file may place and restrict at once).
 *
 * The patterns are anchored at the clause start (after a list label or a bold
 * lead-in such as "**Keep dependencies at the right level.**") with bounded
 * gaps: one pass per clause.
 */
import type { Clause } from '../statements.js';
import type { ClauseContext, Finding, TopicExtractor } from './types.js';

const VALUE = 'add new dependencies';
/** A list label ("Dependencies:") or a bold lead-in sentence ("**Keep it lean.**"). */
const LEAD_IN = String.raw`(?:[*_]{2}[^*_]{1,80}[*_]{2}\s+|[A-Za-z][\w .\/-]{0,30}?:\s+)?`;
const QUALIFIER = String.raw`(?:new|third[- ]party|external|open[- ]source|outside|extra|additional)`;
const DEP = String.raw`(?:(?:${QUALIFIER}\s+){0,3}(?:(?:npm|pypi|pip|cargo|go|maven|nuget|gradle|runtime|dev|production)\s+)?(?:dependenc(?:y|ies)|deps)\b|(?:(?:new\s+)?(?:third[- ]party|external|open[- ]source)\s+)(?:packages?|crates?|librar(?:y|ies)|modules?)\b)`;
const ARTICLE = String.raw`(?:(?:a|an|any|the)\s+)?`;
const ADD = String.raw`(?:add|introduce|install|pull\s+in|bring\s+in)`;
const ADDING = String.raw`(?:adding|introducing|installing|pulling\s+in|bringing\s+in)`;
const APPROVAL = String.raw`(?:approv\w*|request\w*|permission|consent|confirm\w*|sign-?off|ask\w*|discuss\w*|agree\w*)`;

const FORBID = new RegExp(String.raw`^\s*${LEAD_IN}(?:(?:you|agents?)\s+)?(?:do\s+not|don't|never|must\s+not|should\s+not|avoid)\s+${ADD}(?:ing)?\s+${ARTICLE}(${DEP})`, 'i');
const REQUIRES = new RegExp(String.raw`^\s*${LEAD_IN}(?:${ADDING}\s+)?${ARTICLE}(${DEP})[^.;]{0,80}?\b(?:requires?|needs?|must\s+(?:be|get|have)|is\s+subject\s+to)\s+(?:\w+\s+){0,4}?${APPROVAL}`, 'i');
const ASK_FIRST = new RegExp(String.raw`^\s*${LEAD_IN}(?:always\s+)?(?:ask|check\s+with|consult)\b[^.;]{0,40}?\b(?:before|prior\s+to)\s+${ADDING}\s+${ARTICLE}${DEP}`, 'i');
/** What a prohibition waits for: "without an explicit human request", "unless approved". */
const WITHOUT_APPROVAL = new RegExp(String.raw`\b(?:without|unless|until)\b[^.;]{0,60}?\b${APPROVAL}`, 'i');
const NEW = new RegExp(String.raw`^${QUALIFIER}\b`, 'i');
/** A clause whose subject is the act of adding ("Adding a new crate requires …"), not the dependency itself. */
const GERUND_LEAD = new RegExp(String.raw`^\s*${LEAD_IN}${ADDING}\s`, 'i');

const ALLOW = new RegExp(String.raw`^\s*${LEAD_IN}(?:you\s+(?:may|can|are\s+(?:free|allowed|welcome)\s+to)|feel\s+free\s+to|it\s+is\s+(?:fine|ok)\s+to|it's\s+(?:fine|ok)\s+to)\s+${ADD}\s+${ARTICLE}${DEP}`, 'i');
const PLACE = new RegExp(String.raw`^\s*${LEAD_IN}(?:(?:always|please)\s+)?add\s+${ARTICLE}new\s+${DEP}\s+(?:only\s+)?(?:to|in|into)\b`, 'i');
const WHEN_ADDING = new RegExp(String.raw`^\s*${LEAD_IN}(?:when|whenever|before|if)\s+(?:you\s+(?:add|introduce|need)\s+|${ADDING}\s+)${ARTICLE}${DEP}[^,;.]{0,80},\s*`, 'i');
/** After "when adding a dependency,": a request for approval is a restriction, not a placement rule. */
const GET_APPROVAL = new RegExp(String.raw`^(?:(?:always|please|first)\s+)?(?:ask|get|obtain|request|seek|check\s+with|discuss)\b[^.;]{0,60}?\b${APPROVAL}|^(?:(?:always|please|first)\s+)?(?:ask|check\s+with|consult)\b`, 'i');

function extract(clause: Clause, where?: ClauseContext): Finding[] {
  // The raw clause, conditions included: "When adding a new dependency," is blanked in clause.text.
  const raw = where ? where.statement.slice(clause.start, clause.start + clause.text.length) : clause.text;
  if (!/depend|deps\b|third[- ]party|external|open[- ]source/i.test(raw)) return [];
  // Code ticks and one-word emphasis ("Do **not** add") are read as spaces (same length); a bold lead-in stays marked.
  const text = raw.replace(/`/g, ' ').replace(/\*\*(\w+)\*\*/g, '  $1  ');
  const lead = text.search(/\S/);
  const forbid = FORBID.exec(text);
  if (forbid) {
    const isNew = NEW.test(forbid[1] as string);
    const rest = text.slice(forbid[0].length);
    return isNew || WITHOUT_APPROVAL.test(rest) ? [finding(true, lead)] : [];
  }
  const requires = REQUIRES.exec(text);
  if (requires && (NEW.test(requires[1] as string) || GERUND_LEAD.test(text))) return [finding(true, lead)];
  if (ASK_FIRST.test(text)) return [finding(true, lead)];
  if (ALLOW.test(text)) return [finding(false, lead)];
  if (PLACE.test(text)) return [{ ...finding(false, lead), presumed: true }];
  const when = WHEN_ADDING.exec(text);
  if (when) {
    const then = text.slice(when[0].length);
    if (GET_APPROVAL.test(then)) return [finding(true, lead)];
    return /^[a-z]/i.test(then) ? [{ ...finding(false, lead), presumed: true }] : [];
  }
  return [];
}

function finding(negated: boolean, at: number): Finding {
  return { value: VALUE, negated, key: '', at: Math.max(0, at) };
}

export const newDependencies: TopicExtractor = {
  topic: 'new-dependencies',
  description: 'whether the agent adds new third-party dependencies itself or only with a human\'s approval',
  exclusive: false,
  extract,
};
