/**
 * Prompt-injection phrasing (RC63xx): text written to take over the agent
 * rather than guide it — "ignore previous instructions", jailbreak personas,
 * keeping things from the user, sending data away. Instruction files are
 * low-privilege policy; none of this belongs in one, and its presence usually
 * means a file was tampered with or copied from an untrusted source.
 *
 * Phrases inside fenced code or inline code spans are skipped: documentation
 * that quotes an attack as an example is not an attack. Phrases whose
 * sentence negates them ("never ignore previous instructions") are skipped
 * too, except for concealment, whose phrasing is itself a negation.
 */
import type { LintRule } from './types.js';
import { isForbidden } from './negation.js';
import { patternRules, type Pattern } from './pattern-rule.js';
import { inCode } from './text-index.js';

interface Phrase extends Pattern {
  /** Skip when the sentence negates the phrase. */
  negatable: boolean;
}

const S = '[ \\t\\n]{1,4}';
const DETS = `(?:(?:all|any|the|your|of|these|those|my|every|earlier)${S}){0,3}`;

const IGNORE_PREVIOUS: Phrase[] = [
  { what: 'asks the agent to ignore its earlier instructions', negatable: true,
    re: new RegExp(`\\b(?:ignore|disregard|forget)${S}${DETS}(?:previous|prior|above|preceding|earlier|former|original|foregoing)${S}(?:instructions?|prompts?|rules|directions|directives|guidelines|context|messages|commands)\\b`, 'gi') },
];

const SYSTEM_PROMPT: Phrase[] = [
  { what: 'asks the agent to set aside or reveal its system prompt', negatable: true,
    re: new RegExp(`\\b(?:ignore|disregard|forget|override|bypass|reveal|leak|print|output|repeat)${S}${DETS}(?:system|developer)${S}(?:prompt|message|instructions)\\b`, 'gi') },
];

const ROLE_PLAY: Phrase[] = [
  { what: 'tries to switch the agent into an unrestricted persona', negatable: true,
    re: new RegExp(`\\byou${S}are${S}now${S}(?:DAN\\b|in${S}(?:developer|god|jailbreak|unrestricted|unfiltered)${S}mode|an?${S}(?:unrestricted|unfiltered|jailbroken)|jailbroken|free${S}(?:of|from))`, 'gi') },
  { what: 'tries to switch the agent into an unrestricted persona', negatable: true,
    re: new RegExp(`\\b(?:(?:enable|enter|activate|switch${S}to)${S}(?:developer|god|jailbreak)${S}mode|(?:developer|god|jailbreak|DAN)${S}mode${S}(?:is${S})?(?:enabled|activated|on)\\b|Do${S}Anything${S}Now\\b)`, 'gi') },
  { what: 'tries to release the agent from its rules', negatable: false,
    re: new RegExp(`\\b(?:act${S}as${S}(?:an?${S})?(?:unrestricted|unfiltered|jailbroken)|pretend${S}(?:that${S})?you${S}(?:have${S}no${S}(?:rules|restrictions|guidelines)|are${S}not${S}bound)|(?:you${S}are${S})?no${S}longer${S}bound${S}by)`, 'gi') },
];

const CONCEALMENT: Phrase[] = [
  { what: 'tells the agent to hide something from the user', negatable: false,
    re: new RegExp(`\\b(?:do${S}not|don['’]?t|never)${S}(?:tell|inform|notify|alert|reveal${S}(?:this|it|that)${S}to|mention${S}(?:this|it|that|these)${S}to|show${S}(?:this|it|that)${S}to)${S}the${S}user\\b`, 'gi') },
  { what: 'tells the agent to hide something from the user', negatable: false,
    re: new RegExp(`\\b(?:hide|conceal|keep)${S}(?:this|it|that|these|them|(?:the|your|all)${S}[\\w-]{1,30})${S}(?:secret${S})?from${S}the${S}user\\b`, 'gi') },
  { what: 'tells the agent to act without telling the user', negatable: false,
    re: new RegExp(`\\bwithout${S}(?:telling|informing|notifying|alerting|asking)${S}the${S}user\\b`, 'gi') },
];

const EXFILTRATION: Phrase[] = [
  { what: 'asks the agent to send data to an outside address', negatable: true,
    re: new RegExp(`\\b(?:send|post|upload|transmit|exfiltrate|forward|leak|copy)${S}${DETS}(?:contents?|data|files?|secrets?|keys?|tokens?|credentials|passwords?|env(?:ironment)?(?:${S}variables)?|source${S}code|conversation|chat${S}history|codebase|repository|repo)\\b[^\\n]{0,120}?\\b(?:to|at)${S}<?(?:https?:\\/\\/|ftp:\\/\\/|wss?:\\/\\/)`, 'gi') },
];

export const PROMPT_INJECTION_RULES: LintRule[] = patternRules<Phrase>({
  keep: (p, m, index, end) => !inCode(index, m.index) && !inCode(index, end - 1) && !(p.negatable && isForbidden(index, m.index, end)),
  shown: (m) => {
    const quoted = m[0].replace(/\s+/g, ' ');
    return `"${quoted.length > 80 ? `${quoted.slice(0, 77)}...` : quoted}"`;
  },
}, [
  ['RC6301', 'ignore-previous-instructions', IGNORE_PREVIOUS],
  ['RC6302', 'system-prompt-override', SYSTEM_PROMPT],
  ['RC6303', 'jailbreak-persona', ROLE_PLAY],
  ['RC6304', 'conceal-from-user', CONCEALMENT],
  ['RC6305', 'exfiltration', EXFILTRATION],
]);
