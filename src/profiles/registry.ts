/** The agent profiles rulec knows, one file each; adding an agent is adding a row. */
import { claudeCodeProfile } from './claude-code.js';
import { codexProfile } from './codex.js';
import { copilotCliProfile } from './copilot-cli.js';
import { cursorProfile } from './cursor.js';
import { geminiCliProfile } from './gemini-cli.js';
import { qwenCodeProfile } from './qwen-code.js';
import type { AgentProfile } from './types.js';

export const PROFILES: readonly AgentProfile[] = [
  codexProfile, claudeCodeProfile, geminiCliProfile, copilotCliProfile, cursorProfile, qwenCodeProfile,
];

export function profileByName(name: string): AgentProfile | undefined {
  return PROFILES.find((p) => p.name === name);
}

export { DEFAULT_ENABLED_PROFILES } from './defaults.js';
