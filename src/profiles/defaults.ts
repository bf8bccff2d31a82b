/**
 * Profiles checked when the policy has no `profiles.enabled`: the four agents whose loading was
 * captured byte for byte from the real CLIs. Cursor (derived from docs) and Qwen Code are opt-in.
 * (Its own module: the worker's start-up reads it without loading any profile.)
 */
export const DEFAULT_ENABLED_PROFILES: readonly string[] = ['codex', 'claude-code', 'gemini-cli', 'copilot-cli'];
