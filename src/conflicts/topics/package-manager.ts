/**
 * package-manager: which of npm, pnpm, yarn and bun the rule prescribes.
 * A mention counts only when it prescribes: a command (`pnpm install`,
 * `npm run x`), "use/using/via pnpm", or "a pnpm workspace/monorepo". Mentions
 * about users, publishing or the registry describe the ecosystem, not the tool
 * to run, and are skipped. "pnpm for workspaces" is keyed by its purpose, so it
 * is never compared with "npm for scripts".
 */
import type { Clause } from '../statements.js';
import type { Finding, TopicExtractor } from './types.js';
import { codeAt, negatedAt } from './text.js';

const MENTION = /(?<![\w./@-])(npm|pnpm|yarn|bun)(?![\w-]|\.\w)/gi;
const SUBCOMMAND: Record<string, RegExp> = {
  npm: /^\s+(?:install|i|ci|run|run-script|test|t|exec|uninstall|start|add)\b/i,
  pnpm: /^\s+(?:-[\w-]+|install|i|add|remove|run|test|build|lint|dev|exec|dlx|why|format|typecheck|check|start)\b/i,
  yarn: /^\s+(?:-[\w-]+|install|add|remove|run|test|build|lint|dev|exec|dlx|workspace|workspaces|format|typecheck|check|start)\b/i,
  bun: /^\s+(?:install|i|run|test|add|x|build|remove)\b/i,
};
/** Inside a code span any word after pnpm/yarn is a script name. */
const CODE_SUBCOMMAND = /^\s+(?:-[\w-]+|[a-z][\w:-]*)/i;
const USE_BEFORE = /\b(?:use|uses|using|prefer|prefers|via|through|switch to|managed (?:by|with)|run (?:it |them |scripts |commands )?with|install (?:dependencies |deps |packages )?with|is|only)\s+(?:only\s+)?`?$/i;
const LIST_GAP = /^`?\s*(?:for\s+[\w-]+\s+)?(?:,|\/|or|and|nor|not|,\s*(?:or|and|nor|not))\s*(?:not\s+|never\s+)?`?$/i;
const KIND_AFTER = /^`?\s+(?:workspaces?|monorepo|project|repo(?:sitory)?|only)\b/i;
const DESCRIPTIVE = /\b(?:users?|customers?|consumers?|readme|publish(?:ed|ing|es)?|registry|downloads?|npmjs|badge)\b/i;
/** Installing one named package (`npm install @napi-rs/keyring`) says what gets installed, not which tool the repo uses. */
const INSTALLS_PACKAGE = /^\s+(?:i|install|add)\s+(?:-[\w-]+\s+)*(?!(?:to|and|or|the|first|before|after|then|it|them|in|with|from|for|once|again|if|when)\b)[@\w][\w./@-]*/i;
const PURPOSE = /^\s*(?:`[^`]*`\s*)?(?:only\s+)?for\s+(?:the\s+|all\s+)?([a-z][\w-]*)/i;
const GENERIC_PURPOSE = new Set(['everything', 'all', 'this', 'the', 'dependencies', 'dependency', 'deps', 'packages', 'package', 'installing',
  'installation', 'install', 'installs', 'managing', 'management', 'development', 'project', 'repo', 'repository', 'js', 'javascript', 'node',
  'any', 'every', 'each', 'it', 'local', 'running', 'commands', 'package-management']);

function extract(clause: Clause): Finding[] {
  if (!/npm|yarn|bun/i.test(clause.text)) return [];
  if (DESCRIPTIVE.test(clause.text)) return [];
  const out: Finding[] = [];
  const lower = clause.text;
  let lastEnd = -1;
  for (const m of lower.matchAll(MENTION)) {
    const pm = (m[1] ?? '').toLowerCase();
    const at = m.index ?? 0;
    const before = lower.slice(Math.max(0, at - 40), at);
    const after = lower.slice(at + pm.length);
    // The pattern cannot cross a backtick, so it never looks past the code span (or prose) it starts in.
    if (INSTALLS_PACKAGE.test(after)) continue;
    const sub = codeAt(clause, at) && pm !== 'npm' && pm !== 'bun' ? CODE_SUBCOMMAND : (SUBCOMMAND[pm] as RegExp);
    // "pnpm, not npm or yarn", "pnpm for workspaces and npm for scripts": a list continues the prescription before it.
    const listed = lastEnd >= 0 && LIST_GAP.test(lower.slice(lastEnd, at));
    if (!sub.test(after) && !USE_BEFORE.test(before) && !KIND_AFTER.test(after) && !listed) continue;
    lastEnd = at + pm.length + (lower[at + pm.length] === '`' ? 1 : 0);
    const purpose = PURPOSE.exec(after.slice(sub.exec(after)?.[0].length ?? 0))?.[1]?.toLowerCase();
    const key = purpose && !GENERIC_PURPOSE.has(purpose) ? purpose.replace(/s$/, '') : '';
    out.push({ value: pm, negated: negatedAt(clause, at), key, at });
  }
  return out;
}

export const packageManager: TopicExtractor = {
  topic: 'package-manager',
  description: 'which package manager to use: npm, pnpm, yarn or bun',
  exclusive: true,
  extract,
};
