/**
 * How each source takes effect, read from its format and frontmatter, and the
 * layer that follows from it (a glob-scoped rule is path layer wherever it lives).
 */
import type { Activation, Layer, ParsedDoc, SourceFile } from '../types.js';
import { FORMATS } from '../discover/formats.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { joinPath } from '../util/posix-path.js';

export interface ActivationInfo {
  activation: Activation;
  layer: Layer;
  /** Normalised globs, relative to the repo root. */
  globs: string[];
  /** Globs as written. */
  rawGlobs: string[];
}

const ALWAYS_STANDING = new Set(['agents-override', 'agents', 'claude', 'claude-dot', 'gemini', 'copilot', 'cursorrules', 'claude-local', 'managed', 'user']);

export function activationOf(file: SourceFile, doc: ParsedDoc): { value: ActivationInfo; diagnostics: Diagnostic[] } {
  const fm = doc.frontmatter ?? {};
  const base = (activation: Activation, globs: string[] = [], rawGlobs: string[] = []): ActivationInfo => ({
    activation,
    layer: file.layer === 'repo' && activation === 'attached' ? 'path' : file.layer,
    globs,
    rawGlobs,
  });
  if (file.format === 'import') return { value: base('import'), diagnostics: [] };
  if (ALWAYS_STANDING.has(file.format)) return { value: base('standing'), diagnostics: [] };

  const spec = FORMATS.find((f) => f.name === file.format);
  const key = spec?.globKey;
  // A glob value of the wrong type is reported by validate/check-frontmatter.ts (RC4002); here it attaches nowhere.
  const rawGlobs = (key ? globList(fm[key]) : []) ?? [];
  const diagnostics: Diagnostic[] = [];
  const globs = rawGlobs.map((g) => normaliseGlob(g, spec?.globDialect ?? 'root', file.format === 'cursor-rule' ? file.scope : ''));
  if (file.format === 'cursor-rule') {
    if (fm.alwaysApply === true) return { value: base('standing'), diagnostics };
    if (globs.length > 0) return { value: base('attached', globs, rawGlobs), diagnostics };
    return { value: base(typeof fm.description === 'string' && fm.description.trim() ? 'requested' : 'manual'), diagnostics };
  }
  if (file.format === 'copilot-instructions') {
    return { value: globs.length > 0 ? base('attached', globs, rawGlobs) : base('manual'), diagnostics };
  }
  // .claude/rules: paths: makes a rule lazy; without it the rule loads at start.
  return { value: globs.length > 0 ? base('attached', globs, rawGlobs) : base('standing'), diagnostics };
}

/** A string (comma-separated, braces respected) or a list of strings; null for anything else. */
export function globList(value: unknown): string[] | null {
  if (value === undefined || value === null) return [];
  if (typeof value === 'string') return splitGlobs(value);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.flatMap((v) => splitGlobs(v as string));
  return null;
}

/** Split on commas that are not inside `{…}` or `[…]`. */
export function splitGlobs(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let inBracket = false;
  let cur = '';
  for (const ch of s) {
    // Inside `[…]` a brace is a literal character, not a group.
    if (inBracket) inBracket = ch !== ']';
    else if (ch === '[') inBracket = true;
    else if (ch === '{') depth++;
    else if (ch === '}' && depth > 0) depth--;
    if (ch === ',' && depth === 0 && !inBracket) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out.map((g) => g.trim()).filter((g) => g.length > 0);
}

/**
 * Root-relative posix glob. `anywhere` dialect (Cursor): a glob with no `/`
 * matches a name at any depth. `scope` prefixes globs of nested rule dirs.
 */
export function normaliseGlob(glob: string, dialect: 'root' | 'anywhere', scope: string): string {
  let g = glob.replace(/\\/g, '/').replace(/^\.\//, '');
  if (g.startsWith('/')) g = g.slice(1);
  if (dialect === 'anywhere' && !g.includes('/') && !g.startsWith('**')) g = `**/${g}`;
  return scope === '' ? g : joinPath(scope, g);
}
