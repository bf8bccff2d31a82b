/**
 * protected-paths: files or directories that must not be edited by hand
 * ("do not edit `src/generated/`", "`schema.ts` is generated"), against rules
 * that tell the agent to edit them. Two paths meet when one contains the other.
 */
import type { Clause } from '../statements.js';
import type { Finding, TopicExtractor } from './types.js';
import { negatedAt } from './text.js';

const EDIT_VERB = /\b(?:edit|edits|edited|editing|modify|modified|modifying|change|changed|changing|touch|touched|touching|update|updated|updating|hand-edit|write to|overwrite)\b/i;
const ALLOW = /^(?:\s*(?:you\s+)?(?:may|can|should|must|always|please|feel free to|it is fine to|it's fine to))?\s*(?:directly\s+)?(?:edit|modify|update|change|hand-edit)\b/i;
const GENERATED = /\b(?:is|are)\s+(?:auto-?|automatically\s+)?generated\b/i;
const GENERATED_FILES = /\bgenerated (?:files?|code)\b/i;
const DO_NOT = /\bdo not\b/i;

/** "… is generated", or "generated files … do not …" (the second part searched once, after the first mention). */
function saysGenerated(prose: string): boolean {
  if (GENERATED.test(prose)) return true;
  const g = GENERATED_FILES.exec(prose);
  return g !== null && DO_NOT.test(prose.slice(g.index + g[0].length));
}

function pathLike(s: string): string | null {
  const t = s.trim().replace(/^\.\//, '');
  if (/\s/.test(t) || t.length < 2 || t.length > 200) return null;
  if (!/[/]/.test(t) && !/\.[a-z0-9]{1,6}$/i.test(t)) return null;
  if (/^(?:https?:|[-$])/.test(t) || /[()=]/.test(t)) return null;
  return t.replace(/\/\*\*(?:\/\*)?$|\/\*$/, '').replace(/\/$/, '');
}

export function pathsOverlap(a: string, b: string): boolean {
  return a === b || b.startsWith(`${a}/`) || a.startsWith(`${b}/`);
}

function extract(clause: Clause): Finding[] {
  const paths = clause.code.map((c) => ({ path: pathLike(c.content), at: c.start })).filter((p): p is { path: string; at: number } => p.path !== null);
  if (paths.length === 0) return [];
  const verb = EDIT_VERB.exec(clause.prose);
  const generated = saysGenerated(clause.prose);
  let negated: boolean;
  if (verb && negatedAt(clause, verb.index + 1)) negated = true;
  else if (generated && !verb) negated = true;
  else if (verb && ALLOW.test(clause.prose)) negated = false;
  else return [];
  return paths.map((p) => ({ value: p.path, negated, key: '', at: p.at }));
}

export const protectedPaths: TopicExtractor = {
  topic: 'protected-paths',
  description: 'paths that must not be edited by hand',
  exclusive: false,
  extract,
  compatible: pathsOverlap,
  // Overlapping paths share their first segment.
  buckets: (value: string) => [value.split('/')[0] as string],
};
