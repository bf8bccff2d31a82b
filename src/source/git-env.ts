/**
 * The environment rulec runs git in: the caller's, with what would change the
 * meaning of rulec's own queries pinned. Pathspecs are rulec's (`:(glob)…`): a
 * user's GIT_GLOB_PATHSPECS, GIT_LITERAL_PATHSPECS (which turns the magic off,
 * so nothing matches) or GIT_ICASE_PATHSPECS would change what they match.
 * No lock is taken, no prompt shown, and output is not localised.
 */
/** `base` without its unset entries: an environment a child process (or a shell's `export`) can take. */
export function definedEnv(base: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) if (v !== undefined) env[k] = v;
  return env;
}

export function queryEnv(base: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return {
    ...definedEnv(base), GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C',
    GIT_GLOB_PATHSPECS: '0', GIT_LITERAL_PATHSPECS: '0', GIT_NOGLOB_PATHSPECS: '0', GIT_ICASE_PATHSPECS: '0',
  };
}
