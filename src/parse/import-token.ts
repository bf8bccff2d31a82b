/**
 * Claude Code's import syntax — its one definition: `@` at the start of the
 * text or after whitespace, then the path up to the next whitespace, where
 * `\ ` escapes a space. Group 1 is the path as written; importPath()
 * unescapes it. Where imports are looked for is each reader's decision, not
 * the token's: parse-doc skips code and comments, the Claude Code profile
 * applies that agent's own masking, and `rulec check`'s rule closure reads
 * every token (a superset, so a change is compiled rather than missed).
 */
export const IMPORT_TOKEN = /(?:^|\s)@((?:[^\s\\]|\\ )+)/g;

/** The path a token names, its escaped spaces unescaped. */
export function importPath(written: string): string {
  return written.replace(/\\ /g, ' ');
}

/** Columns between a match's start and its `@` (the whitespace before it, if any). */
export function leadOf(match: RegExpMatchArray): number {
  return match[0].length - 1 - (match[1] ?? '').length;
}
