/**
 * Claude Code's `@path` imports, as observed in 2.1.332:
 * 1. Candidates are `@<path>` at the start of a line or after whitespace,
 *    outside fenced code blocks, inline code spans and HTML comments.
 * 2. `@~/x` is in the user's home; `@/abs` is absolute (rulec sees only paths
 *    inside the repository); anything else is relative to the importing file.
 * 3. Each imported file becomes its own segment right after its importer,
 *    depth-first, in the order the imports appear; the import line stays in
 *    the importer's text.
 * 4. At most `max_depth` hops (4); a file already loaded is not loaded again
 *    (this cuts cycles); a missing file is dropped silently.
 * 5. A target outside the session's cwd (a parent directory, the home
 *    directory, outside the repository) is "external": without the user's
 *    approval it is dropped in non-interactive mode.
 */
import { maskInline, scanLines } from '../parse/markdown-scan.js';

/** Import targets in `text`, in order of appearance. */
export function claudeImportTargets(text: string): string[] {
  const out: string[] = [];
  let commentOpen = false;
  for (const line of scanLines(text.replace(/\r\n?/g, '\n'))) {
    if (line.inFence) continue;
    const m = maskInline(line.text, commentOpen);
    commentOpen = m.commentOpen;
    for (const hit of m.masked.matchAll(/(?:^|\s)@((?:[^\s\\]|\\ )+)/g)) {
      const target = (hit[1] ?? '').replace(/\\ /g, ' ');
      if (target !== '') out.push(target);
    }
  }
  return out;
}

export type ImportPlace =
  | { kind: 'repo'; path: string }
  | { kind: 'home'; path: string }
  | { kind: 'absolute'; path: string };

/** Normalise a posix path that may climb with `..`; a path climbing above '' keeps its leading `../`. */
export function normalisePosix(path: string): string {
  const out: string[] = [];
  for (const seg of path.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..' && out.length > 0 && out[out.length - 1] !== '..') out.pop();
    else out.push(seg);
  }
  return out.join('/');
}

/** Where an import target points, from a file in `fromDir` (repo-relative, or home-relative when `fromHome`). */
export function placeImport(target: string, fromDir: string, fromHome: boolean): ImportPlace {
  if (target.startsWith('~/')) return { kind: 'home', path: normalisePosix(target.slice(2)) };
  if (target.startsWith('/')) return { kind: 'absolute', path: target };
  const joined = normalisePosix(fromDir === '' ? target : `${fromDir}/${target}`);
  return fromHome ? { kind: 'home', path: joined } : { kind: 'repo', path: joined };
}

/** True when repo path `path` lies inside directory `dir` ('' = repo root) and does not climb out of the repo. */
export function insideDir(path: string, dir: string): boolean {
  if (path.startsWith('../') || path === '..') return false;
  return dir === '' || path.startsWith(`${dir}/`);
}
