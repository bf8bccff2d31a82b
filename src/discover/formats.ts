/**
 * The instruction-file formats rulec reads, as one table. Each entry says how
 * to recognise a repo-relative path, which directory it governs, and where it
 * sits in render order within that directory. Adding a format is adding a row.
 */
import type { FormatName } from '../types.js';
import { basenameOf, dirnameOf } from '../util/posix-path.js';

export interface FormatSpec {
  name: FormatName;
  /** Rank within one directory: lower renders first (broad before specific, local last). */
  rank: number;
  /** True for personal files that are unreviewed whether git tracks them or not. */
  personal: boolean;
  /** Returns the scope directory when `path` is this format, else null. */
  match(path: string): string | null;
  /** Frontmatter keys that scope the file to globs, if the format has any. */
  globKey?: 'paths' | 'globs' | 'applyTo';
  /** How bare globs are read: from the repo root, or a name matched at any depth. */
  globDialect?: 'root' | 'anywhere';
  /**
   * Whether an agent that reads this format expands its `@path` imports (captured from the real
   * CLIs, test/profiles: Claude Code in CLAUDE.md, .claude/CLAUDE.md, CLAUDE.local.md, rules;
   * Copilot CLI in AGENTS.md and CLAUDE.md; Gemini CLI in GEMINI.md). No agent does in Copilot's
   * own files or AGENTS.override.md; Cursor's `@` references are not captured. Where false,
   * rulec neither follows nor reports `@` text (an npm `@scope/name` is prose there). Default true.
   */
  expandsImports?: boolean;
}

/** `<scope>/<name>` at any depth → scope. */
function named(name: string) {
  return (path: string): string | null => (basenameOf(path) === name ? dirnameOf(path) : null);
}

/**
 * `<scope>/<container>/**\/*<suffix>` → scope. The container is a dot-directory
 * such as `.claude/rules`; nested containers (`a/.claude/rules/x.md`) scope to `a`.
 */
function under(container: string, suffix: string, excludeSuffix?: string) {
  return (path: string): string | null => {
    if (!path.endsWith(suffix) || (excludeSuffix !== undefined && path.endsWith(excludeSuffix))) return null;
    if (path.startsWith(`${container}/`)) return '';
    const i = path.indexOf(`/${container}/`);
    return i < 0 ? null : path.slice(0, i);
  };
}

/** `<scope>/.claude/CLAUDE.md` → scope. */
function dotClaude(path: string): string | null {
  if (path === '.claude/CLAUDE.md') return '';
  return path.endsWith('/.claude/CLAUDE.md') ? path.slice(0, -'/.claude/CLAUDE.md'.length) : null;
}

/** Root-only files (`.github/copilot-instructions.md`, `.cursorrules`). */
function rootOnly(exact: string) {
  return (path: string): string | null => (path === exact ? '' : null);
}

/** Classification is first match, so `.claude/CLAUDE.md` must precede the bare `CLAUDE.md` name. */
export const FORMATS: readonly FormatSpec[] = [
  { name: 'agents-override', rank: 10, personal: false, expandsImports: false, match: named('AGENTS.override.md') },
  { name: 'agents', rank: 11, personal: false, match: named('AGENTS.md') },
  { name: 'claude-dot', rank: 21, personal: false, match: dotClaude },
  { name: 'claude', rank: 20, personal: false, match: named('CLAUDE.md') },
  { name: 'gemini', rank: 30, personal: false, match: named('GEMINI.md') },
  { name: 'copilot', rank: 40, personal: false, expandsImports: false, match: rootOnly('.github/copilot-instructions.md') },
  { name: 'cursorrules', rank: 41, personal: false, expandsImports: false, match: rootOnly('.cursorrules') },
  { name: 'claude-rule', rank: 50, personal: false, match: under('.claude/rules', '.md', '.local.md'), globKey: 'paths', globDialect: 'root' },
  { name: 'cursor-rule', rank: 51, personal: false, expandsImports: false, match: under('.cursor/rules', '.mdc'), globKey: 'globs', globDialect: 'anywhere' },
  { name: 'copilot-instructions', rank: 52, personal: false, expandsImports: false, match: under('.github/instructions', '.instructions.md'), globKey: 'applyTo', globDialect: 'root' },
  { name: 'claude-local', rank: 90, personal: true, match: named('CLAUDE.local.md') },
  { name: 'claude-rule-local', rank: 91, personal: true, match: under('.claude/rules', '.local.md'), globKey: 'paths', globDialect: 'root' },
];

export interface Classified {
  spec: FormatSpec;
  scope: string;
}

/** Classify a repo-relative path, or null when it is not an instruction file. */
export function classifyPath(path: string): Classified | null {
  for (const spec of FORMATS) {
    const scope = spec.match(path);
    if (scope !== null) return { spec, scope };
  }
  return null;
}

const BY_NAME = new Map(FORMATS.map((f) => [f.name, f] as const));

/** False for a format whose `@` text no agent expands; imported, managed and user files do expand. */
export function expandsImports(format: FormatName): boolean {
  return BY_NAME.get(format)?.expandsImports !== false;
}

/** Names that are personal whether or not git tracks them; discovery looks for them explicitly. */
export const LOCAL_FILE_NAMES: readonly string[] = ['CLAUDE.local.md', 'AGENTS.override.md'];
