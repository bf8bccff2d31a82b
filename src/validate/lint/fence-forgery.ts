/**
 * Fence forgery (RC64xx): text that imitates the framing an agent runtime or
 * rulec itself wraps around instruction files. A file that "closes" its own
 * fence and opens a fake one can make the model believe the rest of the file
 * came from a more trusted source (the system, the user, another file).
 * rulec escapes these when rendering, but nobody writes them by accident, so
 * they are reported wherever they appear — code blocks included.
 *
 *   - RC6401 rulec's own provenance fences (`<rulec-source …>`);
 *   - RC6402 agents' context framing: Codex `<INSTRUCTIONS>`, Claude Code
 *     `<system-reminder>` and "Contents of … (project instructions",
 *     Gemini "--- Context from:", and similar context tags;
 *   - RC6403 chat-template tokens (`<|im_start|>`, `[INST]`, `<<SYS>>`);
 *   - RC6404 `Human:` / `Assistant:` turn markers at the start of a line.
 */
import type { LintRule } from './types.js';
import { patternRules, type Pattern } from './pattern-rule.js';

type Imitation = Pattern;

const RULEC_FENCE: Imitation[] = [
  { what: "imitates rulec's provenance fence", re: /<\/?rulec-source\b[^>\n]{0,200}>?/gi },
];

const AGENT_FRAMING: Imitation[] = [
  { what: "imitates Codex's instruction framing", re: /<\/?INSTRUCTIONS>/g },
  { what: "imitates Codex's context framing", re: /<\/?(?:user_instructions|environment_context)>/g },
  { what: "imitates Claude Code's system reminders", re: /<\/?system-reminder>/gi },
  { what: "imitates Claude Code's file framing",
    re: /\bContents of [^\n]{1,200}? \((?:project|user|local)(?:'s private global)? instructions/g },
  { what: "imitates Gemini CLI's context framing", re: /^--- (?:End of )?Context from: /gm },
  { what: 'imitates agent context framing', re: /<\/?(?:loaded_context|project_context|system_prompt)>/gi },
];

const CHAT_TOKENS: Imitation[] = [
  { what: 'contains a chat-template token',
    re: /<\|(?:im_start|im_end|im_sep|endoftext|system|user|assistant|start_header_id|end_header_id|eot_id|begin_of_text|end_of_turn|start_of_turn)\|>/g },
  { what: 'contains a chat-template token', re: /\[\/?INST\]|<<\/?SYS>>|<\/?(?:start|end)_of_turn>/g },
];

const TURN_MARKERS: Imitation[] = [
  { what: 'starts a fake conversation turn', re: /^(?:Human|Assistant):(?=[ \t]|$)/gm },
];

export const FENCE_FORGERY_RULES: LintRule[] = patternRules<Imitation>({ shown: (m) => JSON.stringify(m[0].length > 60 ? `${m[0].slice(0, 57)}...` : m[0]) }, [
  ['RC6401', 'rulec-fence-imitation', RULEC_FENCE],
  ['RC6402', 'agent-framing-imitation', AGENT_FRAMING],
  ['RC6403', 'chat-template-token', CHAT_TOKENS],
  ['RC6404', 'fake-conversation-turn', TURN_MARKERS],
]);
