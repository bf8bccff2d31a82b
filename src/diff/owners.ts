/**
 * CODEOWNERS-style owner lines (`pattern owner…`) and who may approve (pure).
 *
 * Patterns follow CODEOWNERS (gitignore-style): `*` is every file; a leading
 * `/` anchors a pattern at the root; a pattern without a `/` matches a name
 * at any depth; a trailing `/` matches everything below a directory; a
 * pattern also matches everything below a directory it names. The last
 * matching line wins. Owners are users (`alice`, `@alice`) and teams
 * (`@org/team`); logins and team names compare without `@` and case.
 */
import { anyGlob } from '../resolve/glob-compile.js';
import type { ApprovalsInput } from './check-model.js';

export interface OwnerLine {
  test(file: string): boolean;
  owners: string[];
}

export function parseOwnerLines(lines: readonly string[]): OwnerLine[] {
  return lines.map((line) => {
    const [pattern = '', ...owners] = line.trim().split(/\s+/);
    return { test: patternMatcher(pattern), owners };
  });
}

function patternMatcher(pattern: string): (file: string) => boolean {
  if (pattern === '*' || pattern === '**' || pattern === '/**' || pattern === '/') return () => true;
  let p = pattern;
  const anchored = p.startsWith('/');
  if (anchored) p = p.slice(1);
  const dirOnly = p.endsWith('/');
  if (dirOnly) p = p.slice(0, -1);
  if (!anchored && !p.includes('/')) p = `**/${p}`;
  // Through compileGlob (anyGlob), as every glob from a repository is: an owners file comes from pull requests
  // too, and a pattern it cannot match safely (too many wildcards) names no file.
  return anyGlob(dirOnly ? [`${p}/**`] : [p, `${p}/**`]);
}

/** The owners the last matching line names; [] when no line matches (any approver counts). */
export function ownersFor(lines: readonly OwnerLine[], file: string): string[] {
  for (let i = lines.length - 1; i >= 0; i--) {
    const l = lines[i] as OwnerLine;
    if (l.test(file)) return l.owners;
  }
  return [];
}

const norm = (handle: string): string => handle.replace(/^@/, '').toLowerCase();

/** The approvers that satisfy `owners`: any approver when owners is empty; else a named user or a member of a named team. */
export function qualifyingApprovers(owners: readonly string[], approvals: ApprovalsInput): string[] {
  const teams = new Map<string, Set<string>>();
  for (const [team, members] of Object.entries(approvals.teams)) teams.set(norm(team), new Set(members.map(norm)));
  const wanted = owners.map(norm);
  return [...new Set(approvals.approvers.map(norm))].filter((a) => wanted.length === 0 || wanted.some((o) => o === a || (teams.get(o)?.has(a) ?? false))).sort();
}
