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
    explanation: 'rulec\'s canonical model loads this file for some paths, but an enabled agent profile would not, by any name: Claude Code ignores AGENTS.md wherever a CLAUDE.md is on the path, and agents cut import chains at different depths. The bundle therefore describes text this agent never sees. Either make the file reachable for the agent (for Claude, import it with @AGENTS.md from CLAUDE.md) or stop targeting the agent in profiles.enabled. A file the agent reads under another name (a symlink) or through an import is not reported.' },
  { code: 'RC5504', severity: 'info', title: 'agent loads a file the canonical model does not',
    explanation: 'An enabled agent profile would load this file at some paths where rulec\'s canonical model does not include it, for example a Codex fallback filename, a CLAUDE.local.md left out of the build, or a file an agent reads in a parent directory the canonical model does not. What the agent sees is therefore more than the bundle records.' },
  { code: 'RC5506', severity: 'warning', title: 'agent sends the same text twice',
    hint: 'a CLAUDE.md that only imports AGENTS.md can go (Claude Code reads AGENTS.md where no CLAUDE.md is on the path); else accept it with `severity: { RC5506: info }`',
    explanation: 'An enabled agent profile would inject the same file text twice in one session: Copilot CLI sends AGENTS.md on its own and again inlined where CLAUDE.md imports it (@AGENTS.md); Codex sends an AGENTS.md and, in another directory, the file it is a symlink to. The agent pays the tokens twice and sees every rule twice. The message says by which routes the text arrives.' },
  { code: 'RC5507', severity: 'info', title: 'agent loads a file only after the user approves it',
    explanation: 'Claude Code treats a file outside the directory a session starts in as external when it is imported with @path or reached through a symlinked rule: an interactive session asks once whether to allow such imports, and a non-interactive run (claude -p, CI) drops them. A CLAUDE.md that is exactly @AGENTS.md therefore gives a session started in a subdirectory nothing from AGENTS.md until the user approves. rulec\'s bundle includes the file; whether the agent does depends on that answer. Where no other CLAUDE.md is on the path, deleting such a CLAUDE.md makes Claude Code read AGENTS.md itself, in every directory, without asking.' },
  { code: 'RC5505', severity: 'error', title: 'unknown agent profile',
    hint: 'use one of: codex, claude-code, gemini-cli, copilot-cli, cursor, qwen-code',
    explanation: 'profiles.enabled in the policy (or --profile) names a profile rulec does not know. Profiles are checked against a specific agent release each; `rulec explain --profile` lists them.' },
];
