/**
 * script-arguments: how many `--` separators a package script's arguments
 * need — `npm run test:unittests -- --grep "pattern"` against "add
 * `-- -- --grep <pattern>`" (the script forwards to a runner that takes its
 * own `--`). Read from a code span that runs a script with arguments after
 * one or more `--`, or from a span that starts with `--` right after a span
 * that runs the script ("`npm run test` (add `-- --watch`)"). Keyed by the
 * package manager and script; only commands whose arguments follow a `--`
 * count (`pnpm test --filter x` passes pnpm's own flag). Exclusive: one
 * script is not called two ways.
 */
import type { Clause } from '../statements.js';
import type { Finding, TopicExtractor } from './types.js';
import { negatedAt } from './text.js';

const PMS = new Set(['npm', 'pnpm', 'yarn', 'bun']);

function extract(clause: Clause): Finding[] {
  if (!clause.text.includes('--')) return [];
  const out: Finding[] = [];
  let script: string | null = null;
  for (const span of clause.code) {
    const words = span.content.split(/\s+/);
    const own = scriptOf(words);
    const from = own ? own.next : 0;
    const key = own?.script ?? (words[0] === '--' ? script : null);
    script = own && from === words.length ? own.script : null;
    if (key === null) continue;
    let n = 0;
    while (words[from + n] === '--') n++;
    if (n === 0 || from + n >= words.length) continue;
    out.push({ value: `${key.replace(/^(\S+) /, '$1 run ')} ${Array(n).fill('--').join(' ')}`, negated: negatedAt(clause, span.start), key: keyOf(key), at: span.start });
  }
  return out;
}

/** An event topic's key: `npm test:unit` → `npm-test.unit`. */
const keyOf = (script: string): string => script.replace(' ', '-').replace(/[^A-Za-z0-9._-]/g, '.');

/** `npm run test:unit …` → the script `npm test:unit` and where its arguments start; null when the span runs no script. */
function scriptOf(words: readonly string[]): { script: string; next: number } | null {
  const pm = words[0] ?? '';
  if (!PMS.has(pm)) return null;
  const i = words[1] === 'run' || words[1] === 'run-script' ? 2 : 1;
  const name = words[i];
  if (name === undefined || name.startsWith('-')) return null;
  return { script: `${pm} ${name}`, next: i + 1 };
}

export const scriptArguments: TopicExtractor = {
  topic: 'script-arguments',
  description: 'how many `--` separators a package script\'s arguments need',
  exclusive: true,
  extract,
};
