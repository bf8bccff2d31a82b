/**
 * The instruction-file formats rulec reads, as one table: every fact about a
 * format lives in its row. How to recognise a repo-relative path and which
 * directory it governs; its rank in render order within that directory; the
 * policy `formats:` switch it belongs to; the git pathspecs that find it; the
 * frontmatter schema that checks it; how it activates (standing, attached by
 * globs, requested, manual); which format it shadows in its directory; where
 * an agent reads it in the home directory. Adding a format is adding a row
 * (registerFormat adds one for a test).
 */
import type { Activation, FormatName } from '../types.js';
import { basenameOf, dirnameOf } from '../util/posix-path.js';

/** The policy's `formats:` switches: each format belongs to one family. */
export type FormatFamily = 'agents' | 'claude' | 'gemini' | 'copilot' | 'cursor';

/** How a file of a format takes effect, from its frontmatter and its globs (normalised, possibly none). */
export type ActivationRule = (frontmatter: Readonly<Record<string, unknown>>, globs: readonly string[]) => Activation;

/** The JSON Schema that checks a format's frontmatter (shipped in schemas/). */
export interface FrontmatterSchemaRef {
  /** The schema's `$id`. */
  id: string;
  /** Package-relative file that holds it. */
  file: string;
  /** How a message names the format ("a Cursor rule"). */
  label: string;
  /** Keys documented as one value: a YAML list there is worth a note (RC4005) with this message and hint. */
  scalarKeys?: readonly { key: string; message: string; hint: string }[];
}

/** A format whose files, when present, replace another format's file in the same directory. */
export interface Shadowing {
  format: FormatName;
  /** Why the shadowed file does not load (explain). */
  note: string;
  /** The ruling's reason on the shadow conflict event. */
  reason: string;
}

export interface FormatSpec {
  name: FormatName;
  /** Rank within one directory: lower renders first (broad before specific, local last). */
  rank: number;
  /** True for personal files that are unreviewed whether git tracks them or not. */
  personal: boolean;
  /** The policy `formats:` switch that turns this format off, or null when none does. */
  family: FormatFamily | null;
  /** Returns the scope directory when `path` is this format, else null. */
  match(path: string): string | null;
  /** Git pathspecs that find this format's files (untracked and ignored ones are asked for by these). */
  pathspec: readonly string[];
  /** The schema of the format's own frontmatter; without one only rulec's keys are checked. */
  schema?: FrontmatterSchemaRef;
  /** Frontmatter key that scopes the file to globs, if the format has one. */
  globKey?: string;
  /** How bare globs are read: from the repo root, or a name matched at any depth. */
  globDialect?: 'root' | 'anywhere';
  /** True when globs are relative to the rule's scope directory (nested rule dirs), not the repo root. */
  globsFromScope?: boolean;
  /** How the file activates; default: attached when it has globs, else standing. */
  activation?: ActivationRule;
  /** Which format's file in the same directory this one replaces. */
  shadows?: Shadowing;
  /**
   * Where an agent reads this format below the home directory (the user layer):
   * a file, or a directory (ending in `/`) whose files this format matches.
   */
  home?: readonly string[];
  /** True when the header is read leniently (`key: value` lines) where it is not valid YAML. */
  lenientFrontmatter?: boolean;
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

const anywhere = (glob: string): string[] => [`:(glob)**/${glob}`];
const atRoot = (path: string): string[] => [`:(glob)${path}`];

/** Cursor: `alwaysApply: true` loads at start; globs attach; a description alone is agent-requested; else manual. */
const cursorActivation: ActivationRule = (fm, globs) => {
  if (fm.alwaysApply === true) return 'standing';
  if (globs.length > 0) return 'attached';
  return typeof fm.description === 'string' && fm.description.trim() ? 'requested' : 'manual';
};
/** Copilot: a file without `applyTo` is never attached automatically. */
const copilotActivation: ActivationRule = (_fm, globs) => (globs.length > 0 ? 'attached' : 'manual');

const SCHEMAS = 'https://rulec.dev/schemas/';
const CLAUDE_RULE_SCHEMA: FrontmatterSchemaRef = {
  id: `${SCHEMAS}frontmatter-claude-rule-v1.json`, file: 'schemas/frontmatter-claude-rule.schema.json', label: 'a .claude/rules file',
};
const CURSOR_RULE_SCHEMA: FrontmatterSchemaRef = {
  id: `${SCHEMAS}frontmatter-cursor-rule-v1.json`, file: 'schemas/frontmatter-cursor-rule.schema.json', label: 'a Cursor rule',
};
const COPILOT_SCHEMA: FrontmatterSchemaRef = {
  id: `${SCHEMAS}frontmatter-copilot-instructions-v1.json`, file: 'schemas/frontmatter-copilot-instructions.schema.json', label: 'a Copilot instructions file',
  scalarKeys: [
    { key: 'applyTo', message: 'applyTo is a YAML list; GitHub documents one string of globs separated by commas, and not every Copilot surface is documented to read a list', hint: 'applyTo: "a/**/*.ts, b/**" is the documented form' },
    { key: 'excludeAgent', message: 'excludeAgent is a YAML list; GitHub documents one value ("code-review" or "coding-agent"), and not every Copilot surface is documented to read a list', hint: 'excludeAgent: "code-review" is the documented form' },
  ],
};
/** Codex: the override replaces AGENTS.md in its directory. */
const CODEX_OVERRIDE: Shadowing = {
  format: 'agents',
  note: 'shadowed by AGENTS.override.md in the same directory',
  reason: 'AGENTS.override.md replaces AGENTS.md in the same directory (Codex semantics); none of AGENTS.md loads there',
};

/**
 * Classification is first match, so `.claude/CLAUDE.md` must precede the bare `CLAUDE.md` name.
 * A shadowing format precedes the format it shadows (home files are read in this order).
 */
const TABLE: FormatSpec[] = [
  { name: 'agents-override', rank: 10, personal: false, family: 'agents', expandsImports: false, match: named('AGENTS.override.md'),
    pathspec: anywhere('AGENTS.override.md'), shadows: CODEX_OVERRIDE, home: ['.codex/AGENTS.override.md'] },
  { name: 'agents', rank: 11, personal: false, family: 'agents', match: named('AGENTS.md'), pathspec: anywhere('AGENTS.md'), home: ['.codex/AGENTS.md'] },
  { name: 'claude-dot', rank: 21, personal: false, family: 'claude', match: dotClaude, pathspec: anywhere('.claude/CLAUDE.md'), home: ['.claude/CLAUDE.md'] },
  { name: 'claude', rank: 20, personal: false, family: 'claude', match: named('CLAUDE.md'), pathspec: anywhere('CLAUDE.md') },
  { name: 'gemini', rank: 30, personal: false, family: 'gemini', match: named('GEMINI.md'), pathspec: anywhere('GEMINI.md'), home: ['.gemini/GEMINI.md'] },
  { name: 'copilot', rank: 40, personal: false, family: 'copilot', expandsImports: false, match: rootOnly('.github/copilot-instructions.md'),
    pathspec: atRoot('.github/copilot-instructions.md') },
  { name: 'cursorrules', rank: 41, personal: false, family: 'cursor', expandsImports: false, match: rootOnly('.cursorrules'), pathspec: atRoot('.cursorrules') },
  { name: 'claude-rule', rank: 50, personal: false, family: 'claude', match: under('.claude/rules', '.md', '.local.md'),
    pathspec: anywhere('.claude/rules/**/*.md'), schema: CLAUDE_RULE_SCHEMA, globKey: 'paths', globDialect: 'root', home: ['.claude/rules/'] },
  { name: 'cursor-rule', rank: 51, personal: false, family: 'cursor', expandsImports: false, match: under('.cursor/rules', '.mdc'),
    pathspec: anywhere('.cursor/rules/**/*.mdc'), schema: CURSOR_RULE_SCHEMA, globKey: 'globs', globDialect: 'anywhere', globsFromScope: true,
    activation: cursorActivation, lenientFrontmatter: true },
  { name: 'copilot-instructions', rank: 52, personal: false, family: 'copilot', expandsImports: false, match: under('.github/instructions', '.instructions.md'),
    pathspec: anywhere('.github/instructions/**/*.instructions.md'), schema: COPILOT_SCHEMA, globKey: 'applyTo', globDialect: 'root', activation: copilotActivation },
  { name: 'claude-local', rank: 90, personal: true, family: 'claude', match: named('CLAUDE.local.md'), pathspec: anywhere('CLAUDE.local.md') },
  { name: 'claude-rule-local', rank: 91, personal: true, family: 'claude', match: under('.claude/rules', '.local.md'),
    pathspec: anywhere('.claude/rules/**/*.local.md'), schema: CLAUDE_RULE_SCHEMA, globKey: 'paths', globDialect: 'root', home: ['.claude/rules/'] },
];

export const FORMATS: readonly FormatSpec[] = TABLE;

const byName = new Map<string, FormatSpec>(TABLE.map((f) => [f.name, f]));

/** The spec of a format; undefined for the formats no path has (managed, user, import). */
export function formatSpec(name: string): FormatSpec | undefined {
  return byName.get(name);
}

/**
 * Add a format to the table (before `before`, or last) and return the function that
 * removes it again. For tests that prove a format is one row; rulec itself never calls it.
 */
export function registerFormat(spec: FormatSpec, before?: FormatName): () => void {
  if (byName.has(spec.name)) throw new Error(`format ${spec.name} is already registered`);
  const at = before === undefined ? TABLE.length : TABLE.findIndex((f) => f.name === before);
  if (at < 0) throw new Error(`format ${String(before)} is not registered`);
  TABLE.splice(at, 0, spec);
  byName.set(spec.name, spec);
  return () => {
    const i = TABLE.indexOf(spec);
    if (i >= 0) TABLE.splice(i, 1);
    byName.delete(spec.name);
  };
}

export interface Classified {
  spec: FormatSpec;
  scope: string;
}

/** Classify a repo-relative path, or null when it is not an instruction file. */
export function classifyPath(path: string): Classified | null {
  for (const spec of TABLE) {
    const scope = spec.match(path);
    if (scope !== null) return { spec, scope };
  }
  return null;
}

/** False for a format whose `@` text no agent expands; imported, managed and user files do expand. */
export function expandsImports(format: FormatName): boolean {
  return byName.get(format)?.expandsImports !== false;
}

/** The formats' git pathspecs, each once, in table order; personal formats' only when asked for. */
export function formatPathspecs(withPersonal: boolean): string[] {
  return [...new Set(TABLE.filter((f) => withPersonal || !f.personal).flatMap((f) => f.pathspec))];
}
