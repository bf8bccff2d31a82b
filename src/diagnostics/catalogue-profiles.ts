/** RC55xx: agent profile findings (truncation, starvation, divergence from the canonical model). */
import type { CatalogueEntry } from './catalogue.js';

export const PROFILE_CODES: CatalogueEntry[] = [
  { code: 'RC5501', severity: 'warning', title: 'agent drops an instruction file',
    hint: 'shrink the files loaded before it, or raise the agent\'s limit (profiles.codex.project_doc_max_bytes)',
    explanation: 'An agent profile enabled in the policy (profiles.enabled) would not load this file at some paths because the agent\'s size budget is used up by files it loads first. Codex, for example, spends one project_doc_max_bytes budget (32 KiB) root-first across the AGENTS.md chain and silently skips every file after the budget runs out. The message names the number of paths affected and what uses the budget; `rulec explain PATH --profile NAME` shows the exact text the agent would load.' },
  { code: 'RC5502', severity: 'warning', title: 'agent truncates an instruction file',
    hint: 'move the important rules to the top, shrink earlier files, or raise the agent\'s limit',
    explanation: 'An enabled agent profile would load only the beginning of this file at some paths: its size budget runs out inside the file. Codex cuts at a raw byte (a split UTF-8 character becomes U+FFFD) and only logs the cut, so the rules after the cut are silently lost. The message gives the byte offset of the cut, the bytes lost and the number of paths affected.' },
  { code: 'RC5503', severity: 'warning', title: 'agent ignores a file the canonical model loads',
    hint: 'run `rulec explain PATH --profile NAME` to see what the agent loads instead',
    explanation: 'rulec\'s canonical model loads this file for some paths, but an enabled agent profile would not: Claude Code ignores AGENTS.md wherever a CLAUDE.md is on the path, it drops @imports from outside the working directory unless they are approved, and agents cut import chains at different depths. The bundle therefore describes text this agent never sees. Either make the file reachable for the agent (for Claude, import it with @AGENTS.md from CLAUDE.md) or stop targeting the agent in profiles.enabled.' },
  { code: 'RC5504', severity: 'info', title: 'agent loads a file the canonical model does not',
    explanation: 'An enabled agent profile would load this file at some paths where rulec\'s canonical model does not include it, for example a Codex fallback filename, a CLAUDE.local.md left out of the build, or a file an agent reads in a parent directory the canonical model does not. What the agent sees is therefore more than the bundle records.' },
  { code: 'RC5505', severity: 'error', title: 'unknown agent profile',
    hint: 'use one of: codex, claude-code, gemini-cli, copilot-cli, cursor, qwen-code',
    explanation: 'profiles.enabled in the policy (or --profile) names a profile rulec does not know. Profiles are checked against a specific agent release each; `rulec explain --profile` lists them.' },
];
