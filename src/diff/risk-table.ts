/**
 * The risk table: one small named row per kind of risky change. A row reads
 * one rule change of a BundleDiff — the lines it adds or removes, its topic
 * findings, its effects, its sites — and says whether it matches. Adding a
 * check is adding a row; a policy can move a row to another class or turn it
 * off (`risk.checks`). `policy-changed` is not a rule row: rulec check raises
 * it when the policy file differs between base and head.
 */
import { normaliseCommand, purposeOf } from '../conflicts/topics/command.js';
import { CI_CONFIG_SOURCE } from '../validate/lint/ci-config.js';
import type { RiskLevel } from './check-model.js';
import type { RuleChange, RuleEffect } from './rule-change.js';

export interface RiskRow {
  id: string;
  level: RiskLevel;
  why: string;
  /** Patterns tried on each added line (changed, moved and added rules). */
  added?: readonly RegExp[];
  /** Patterns tried on each removed line (changed, moved and removed rules). */
  removed?: readonly RegExp[];
  /** Match a removed line only when no added line of the rule matches too (the instruction was reworded, not dropped). */
  removedOnly?: boolean;
  /** Topics (before any `/key`) whose findings were added or removed. */
  topics?: readonly string[];
  effect?: RuleEffect;
  kinds?: readonly RuleChange['kind'][];
  /** A custom test: true or the matching excerpt when the row matches. */
  test?(r: RuleChange): boolean | string;
}

const SHELL = String.raw`(?:sudo\s+)?(?:ba|z|da|k|fi)?sh\b`;

export const RISK_TABLE: readonly RiskRow[] = [
  { id: 'pipe-to-shell', level: 'high', why: 'pipes a download into a shell',
    added: [new RegExp(String.raw`\b(?:curl|wget|fetch)\b[^\n|]*\|\s*${SHELL}`, 'i'), /\b(?:iwr|irm|invoke-webrequest|invoke-restmethod)\b[^\n|]*\|\s*(?:iex|invoke-expression)\b/i,
      /\b(?:ba)?sh\s+<\(\s*(?:curl|wget)\b/i, /\bsh\s+-c\s+["']?\$\(\s*(?:curl|wget)\b/i] },
  { id: 'external-download', level: 'high', why: 'downloads or installs something from the network',
    added: [/\b(?:curl|wget)\b[^\n]*\bhttps?:\/\//i, /\b(?:pip3?|uv\s+pip|npm|pnpm|yarn|bun|gem|go)\s+(?:install|add|get|i)\s+[^\n]*\b(?:git\+)?https?:\/\//i,
      /\bnpx\s+(?:-y\s+|--yes\s+)?(?:https?:\/\/|github:)/i] },
  { id: 'deploy-command', level: 'high', why: 'adds a deploy, publish or release command',
    added: [/\b(?:npm|pnpm|yarn|bun)\s+(?:publish|deploy)\b/i, /\b(?:npm|pnpm|yarn|bun)\s+run\s+(?:deploy|release|publish)\b/i,
      /\b(?:cargo|poetry|flit|hatch|gem)\s+(?:publish|push)\b/i, /\btwine\s+upload\b/i, /\bdocker\s+push\b/i,
      /\bkubectl\s+(?:apply|delete|rollout|scale|set)\b/i, /\bhelm\s+(?:install|upgrade|uninstall)\b/i, /\bterraform\s+(?:apply|destroy)\b/i,
      /\bpulumi\s+up\b/i, /\bgh\s+release\s+create\b/i, /\b(?:vercel|netlify|firebase|serverless|fly|flyctl)\s+deploy\b/i,
      /\bgit\s+push\b[^\n]*(?:--force|\s-f\b|--tags|\b(?:main|master|production|release)\b)/i, /\b(?:make|just|task)\s+(?:deploy|release|publish)\b/i,
      /\b(?:deploy|release|publish)\w*\b[^\n]*\bto\s+(?:prod|production|npm|pypi|crates\.io|the\s+registry)\b/i] },
  { id: 'credentials', level: 'high', why: 'touches credentials, tokens or permissions',
    added: credentialPatterns(), removed: credentialPatterns() },
  { id: 'ci-config', level: 'high', why: 'points agents at CI configuration, which runs with the repository\'s secrets',
    added: [new RegExp(CI_CONFIG_SOURCE)] },
  { id: 'disable-verification', level: 'high', why: 'disables tests, hooks or verification',
    added: [/--no-verify\b/i, /--no-gpg-sign\b/i, /\bHUSKY=0\b/, /\bSKIP_[A-Z_]*(?:TEST|CHECK|HOOK|CI|VERIFY)[A-Z_]*\b/,
      /\bskip(?:ping|s)?\s+(?:the\s+|all\s+|any\s+)?(?:failing\s+)?(?:tests?|hooks?|ci|lint(?:ing)?|checks?|verification|pre-?commit|type-?check(?:ing|s)?)\b/i,
      /\b(?:disable|turn\s+off|bypass|ignore|comment\s+out)\s+(?:the\s+|all\s+|any\s+)?(?:failing\s+)?(?:tests?|hooks?|lint(?:ing|er|s)?|checks?|verification|type-?check(?:ing|s)?|ci|pre-?commit)\b/i,
      /\b(?:don't|do\s+not|never|no\s+need\s+to)\s+(?:run|execute)\s+(?:the\s+)?(?:tests?|test\s+suite|lint(?:er)?|checks?|hooks?|type-?check)\b/i,
      /\b(?:it|describe|test)\.skip\b/, /\bxit\(/, /@ts-(?:ignore|nocheck)\b/, /\beslint-disable\b/, /--passWithNoTests\b/] },
  { id: 'verification-removed', level: 'high', why: 'removes an instruction to run tests, hooks or verification', removedOnly: true,
    removed: [/\b(?:run|runs|running|execute|pass|passes)\b[^\n]*\b(?:tests?|test\s+suite|lint(?:er)?|type-?check|hooks?|pre-?commit|verification|verify|ci)\b/i] },
  { id: 'scope-to-repository', level: 'high', why: 'widens a rule to the whole repository', effect: 'scope-to-repository' },
  { id: 'managed-or-enforced', level: 'high', why: 'changes a managed or enforced rule',
    test: (r) => [r.old, r.new].some((s) => s !== null && (s.layer === 'managed' || s.enforced)) },
  { id: 'command-changed', level: 'medium', why: 'changes a test, build, lint or format command',
    topics: ['test-command', 'build-command', 'lint-command', 'format-command'], test: changedCommand },
  { id: 'toolchain-changed', level: 'medium', why: 'changes the package manager or a runtime version', topics: ['package-manager', 'runtime-version'] },
  { id: 'rule-removed', level: 'medium', why: 'removes a rule: agents stop following it', kinds: ['removed'] },
];

/** The row every rule change falls to when no other row matches it. */
export const WORDING_ROW: RiskRow = { id: 'wording', level: 'low', why: 'changes wording or adds guidance' };
/** Raised by rulec check when the policy file differs between base and head. */
export const POLICY_ROW: RiskRow = { id: 'policy-changed', level: 'high', why: 'changes the rulec policy (severities, budgets, accepted conflicts, risk owners)' };

/**
 * A test, build, lint or format command (an inline code span the command
 * topics recognise) on one side of the change only, compared as written: the
 * topics normalise `npm run test:unit` to `npm test`, a reviewer must not.
 */
function changedCommand(r: RuleChange): boolean | string {
  const commands = (lines: readonly string[]): Set<string> => {
    const out = new Set<string>();
    for (const l of lines) {
      for (const m of l.matchAll(/`([^`\n]+)`/g)) {
        const raw = (m[1] as string).trim();
        const norm = normaliseCommand(raw);
        if (norm !== null && purposeOf(norm) !== null) out.add(raw);
      }
    }
    return out;
  };
  const before = commands(r.removed_lines);
  const after = commands(r.added_lines);
  const gone = [...before].find((c) => !after.has(c));
  const come = [...after].find((c) => !before.has(c));
  return come !== undefined ? `+ ${come}` : gone !== undefined ? `- ${gone}` : false;
}

function credentialPatterns(): RegExp[] {
  return [
    /\b(?:api[_ -]?keys?|access[_ -]?tokens?|auth[_ -]?tokens?|secrets?|passwords?|passphrases?|credentials?|private[_ -]?keys?|ssh[_ -]?keys?|bearer)\b/i,
    /\b[A-Z][A-Z0-9]*_(?:TOKEN|SECRET|KEY|PASSWORD)\b/,
    /(?:^|\s|`)\.env(?:\.[a-z]+)?\b/i,
    /\b(?:permissions?|sudo|chmod|chown|setuid|privileged|allowedtools|bypasspermissions|allow-?list)\b|--allow-[a-z-]+|--dangerously[a-z-]*/i,
  ];
}

/** What a row matched: the excerpt to show, and the line of the new file it is on (null: the rule's own line). */
export interface RowHit {
  excerpt: string | null;
  line: number | null;
}

/** The first line (or finding) of `r` that `row` matches; undefined when it does not match. */
export function matchRow(row: RiskRow, r: RuleChange): RowHit | undefined {
  // Prose before headings: "## Secrets" matches, but the line under it says what changed.
  const first = (patterns: readonly RegExp[] | undefined, lines: readonly string[]): number | undefined => {
    if (!patterns) return undefined;
    const hits = [...lines.keys()].filter((i) => patterns.some((p) => p.test(lines[i] as string)));
    return hits.find((i) => !(lines[i] as string).startsWith('#')) ?? hits[0];
  };
  const added = first(row.added, r.added_lines);
  if (added !== undefined) return { excerpt: r.added_lines[added] as string, line: r.added_at[added] ?? null };
  const removed = row.removedOnly && first(row.removed, r.added_lines) !== undefined ? undefined : first(row.removed, r.removed_lines);
  // A removed line is in the old file: the finding stays at the rule's line in the new one.
  if (removed !== undefined) return { excerpt: r.removed_lines[removed] as string, line: null };
  // A row's own test quotes what was written (`npm run test:unit`), which beats a topic's normalised value (`npm test`).
  const custom = row.test?.(r);
  if (typeof custom === 'string') return { excerpt: custom, line: null };
  if (row.topics) {
    const f = [...r.removed_findings.map((x) => ['-', x] as const), ...r.added_findings.map((x) => ['+', x] as const)]
      .find(([, x]) => row.topics?.includes(x.topic.split('/')[0] as string));
    if (f) return { excerpt: `${f[0]} ${f[1].topic}: ${f[1].value}`, line: f[0] === '+' ? f[1].line : null };
  }
  const matched = (row.effect !== undefined && r.effects.includes(row.effect)) || (row.kinds?.includes(r.kind) ?? false) || custom === true;
  return matched ? { excerpt: null, line: null } : undefined;
}
