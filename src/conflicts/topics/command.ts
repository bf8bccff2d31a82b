/**
 * Shared machinery for the command topics (test, build, lint, format): find
 * commands in inline code spans, decide their purpose from the command itself
 * (never from the surrounding prose: "run `pnpm install` before the tests" is
 * not a test command), and normalise them so `pnpm --filter=x test` and
 * `pnpm run test` name the same command. A command aimed at a target (a
 * package filter, a script variant such as `test:e2e`, a directory it is run
 * in, a file or a test selection) is keyed by that target: it is compared only
 * with commands for the same target, never with the project's general command
 * ("run `npm run test:contract` here" does not override "`make test`").
 */
import type { Clause } from '../statements.js';
import type { Finding } from './types.js';
import { endsWith, negatedAt } from './text.js';

export type Purpose = 'test' | 'lint' | 'format' | 'build';

const PMS = new Set(['npm', 'pnpm', 'yarn', 'bun']);
const VALUE_FLAGS = new Set(['-f', '--filter', '-p', '--package', '-c', '--dir', '--workspace', '--prefix', '--manifest-path', '-k', '-m']);
const WRAPPERS = ['npx', 'bunx', 'pnpx'];
const PURPOSES: [Purpose, RegExp][] = [
  ['test', /^(?:tests?|pytest|vitest|jest|mocha|nextest|ctest|tox|nox|phpunit|rspec|playwright)$|^tests?:/],
  ['lint', /^(?:lint|eslint|clippy|golangci-lint|oxlint|flake8|pylint|ruff-check|biome-lint|lint:\w+|stylelint|markdownlint)$/],
  ['format', /^(?:fmt|format|prettier|black|gofmt|rustfmt|dprint|ruff-format|biome-format|format:\w+|fmt:\w+)$/],
  ['build', /^(?:build|compile|webpack|rollup|build:\w+)$/],
];
const TOOL_CMDS = /^(?:npm|pnpm|yarn|bun|npx|bunx|cargo|go|make|just|uv|poetry|pytest|vitest|jest|dotnet|gradle|gradlew|\.\/gradlew|mvn|zig|ruff|biome|eslint|prettier|black|tox|nox|nx|turbo|deno|mix|bazel|cmake|ctest|swift|xcodebuild|hatch|pdm|rake|bundle|composer|dune|stack|cabal)$/;

/** Normalise a command to at most three meaningful words; null when it is not a command. */
export function normaliseCommand(raw: string): string | null {
  let words = raw.trim().replace(/^\$\s+/, '').split(/\s+/).filter((w) => !/^[A-Z_][A-Z0-9_]*=/.test(w));
  if (words.length === 0) return null;
  if (WRAPPERS.includes(words[0] as string)) words = words.slice(1);
  if (!TOOL_CMDS.test(words[0] ?? '')) return null;
  const out: string[] = [];
  for (let i = 0; i < words.length && out.length < 3; i++) {
    const w = (words[i] as string).toLowerCase();
    if (w === '&&' || w === '||' || w === '|' || w === ';') break;
    if (w.startsWith('-')) {
      // npm's -w names a workspace; pnpm's -w means the workspace root and takes no value.
      if (VALUE_FLAGS.has(w) || (w === '-w' && out[0] === 'npm')) i++;
      continue;
    }
    if (/[/.<>@=*'"]/.test(w) && !/^\.\/gradlew$/.test(w)) continue;
    if (PMS.has(out[0] ?? '') && out.length === 1 && (w === 'run' || w === 'run-script' || w === 'exec')) continue;
    out.push(PMS.has(out[0] ?? '') && out.length === 1 ? w.replace(/:.*$/, '') : w);
    // Words after the tool that says what the command does are arguments (`vitest run src` → `vitest run`).
    if (out.length > 1 || !PMS.has(w)) {
      const isPurpose = (x: string | undefined): boolean => x !== undefined && PURPOSES.some(([, re]) => re.test(x.replace(/:.*$/, '')));
      if (isPurpose(w) && !isPurpose(words[i + 1])) {
        if (words[i + 1] === 'run') out.push('run');
        break;
      }
    }
  }
  return out.length > 0 ? out.join(' ') : null;
}

export function purposeOf(cmd: string): Purpose | null {
  const words = cmd.split(' ');
  const pairs = words.slice(0, -1).map((w, i) => `${w}-${words[i + 1]}`);
  for (const [purpose, re] of PURPOSES) if ([...words.slice(1), ...pairs, words[0] ?? ''].some((w) => re.test(w))) return purpose;
  return null;
}

/** A lone tool name (`vitest`) is a command only when the prose says to run or use it. */
const RUN_BEFORE = /\b(?:run|runs|running|with|use|using|via|execute|invoke|through)$/i;

export function commandFindings(clause: Clause, purpose: Purpose): Finding[] {
  const out: Finding[] = [];
  for (const span of clause.code) {
    let dir = '';
    for (const part of span.content.split(/\s*(?:&&|\|\||;)\s*/)) {
      const cd = /^\s*cd\s+(\S+)\s*$/.exec(part);
      if (cd) { dir = (cd[1] as string).replace(/\/+$/, ''); continue; }
      const cmd = normaliseCommand(part);
      if (!cmd || purposeOf(cmd) !== purpose) continue;
      if (!/\s/.test(part.trim()) && !endsWith(clause.prose.slice(0, span.start - 1), RUN_BEFORE)) continue;
      out.push({ value: cmd, negated: negatedAt(clause, span.start), key: targetOf(part, dir), at: span.start });
    }
  }
  return out;
}

const TARGET_FLAGS = new Set(['-F', '--filter', '-p', '--package', '--workspace', '--dir', '--prefix', '--manifest-path', '-C']);
const SELECTION_FLAGS = new Set(['-k', '-m', '-t', '--testNamePattern', '--grep', '--project']);

/**
 * What a command is aimed at, '' for the project's general command:
 * `dir:D` (run inside D), `pkg:P` (a package filter), `script:S` (a script
 * variant, `test:e2e` → `e2e`), `args` (files, directories or a selection).
 */
export function targetOf(raw: string, dir = ''): string {
  let words = raw.trim().replace(/^\$\s+/, '').split(/\s+/).filter((w) => !/^[A-Z_][A-Z0-9_]*=/.test(w));
  if (WRAPPERS.includes(words[0] as string)) words = words.slice(1);
  const parts: string[] = dir && dir !== '.' ? [`dir:${dir}`] : [];
  let args = false;
  for (let i = 1; i < words.length; i++) {
    const w = words[i] as string;
    if (w === '--') break;
    const eq = w.indexOf('=');
    const flag = eq > 0 ? w.slice(0, eq) : w;
    if (TARGET_FLAGS.has(flag) || (flag === '-w' && words[0] === 'npm')) {
      const value = eq > 0 ? w.slice(eq + 1) : words[++i];
      if (value) parts.push(`pkg:${value}`);
    } else if (SELECTION_FLAGS.has(flag)) {
      args = true;
      if (eq < 0) i++;
    } else if (w.startsWith('-')) {
      continue;
    } else if (PMS.has(words[0] as string) && /^[\w-]+:[\w:-]+$/.test(w) && !parts.some((p) => p.startsWith('script:'))) {
      parts.push(`script:${w.slice(w.indexOf(':') + 1)}`);
    } else if (/[/\\]|\.\w+$/.test(w) && w !== '.' && w !== './...' && !/^\.\/gradlew$/.test(w)) {
      args = true;
    }
  }
  if (args) parts.push('args');
  return parts.join(' ');
}

/** Commands that differ only in the package manager are one command here; package-manager reports that difference. */
export function sameCommand(a: string, b: string): boolean {
  return commandWithoutPm(a) === commandWithoutPm(b);
}

/** The canonical form behind sameCommand: the command without a leading package manager. */
export function commandWithoutPm(c: string): string {
  const space = c.indexOf(' ');
  const first = space < 0 ? c : c.slice(0, space);
  return PMS.has(first) ? (space < 0 ? '' : c.slice(space + 1)) : c;
}
