/**
 * How each source takes effect, read from its format's spec (src/formats/formats.ts:
 * its glob key, dialect and activation rule) and frontmatter, and the layer that
 * follows from it (a glob-scoped rule is path layer wherever it lives).
 */
import type { Activation, Layer, ParsedDoc, SourceFile, StageResult } from '../types.js';
import { formatSpec } from '../formats/formats.js';
import { joinPath } from '../util/posix-path.js';

export interface ActivationInfo {
  activation: Activation;
  layer: Layer;
  /** Normalised globs, relative to the repo root. */
  globs: string[];
  /** Globs as written. */
  rawGlobs: string[];
}

export function activationOf(file: SourceFile, doc: ParsedDoc): StageResult<ActivationInfo> {
  const layerOf = (activation: Activation): Layer => (file.layer === 'repo' && activation === 'attached' ? 'path' : file.layer);
  // Managed and user files have no spec: they load at start; an imported file loads with its importer.
  const spec = formatSpec(file.format);
  if (!spec) {
    const activation = file.format === 'import' ? 'import' : 'standing';
    return { value: { activation, layer: layerOf(activation), globs: [], rawGlobs: [] }, diagnostics: [] };
  }
  const fm = doc.frontmatter ?? {};
  // A glob value of the wrong type is reported by validate/check-frontmatter.ts (RC4002); here it attaches nowhere.
  const rawGlobs = (spec.globKey ? globList(fm[spec.globKey]) : []) ?? [];
  const globs = rawGlobs.map((g) => normaliseGlob(g, spec.globDialect ?? 'root', spec.globsFromScope ? file.scope : ''));
  const activation = spec.activation ? spec.activation(fm, globs) : globs.length > 0 ? 'attached' : 'standing';
  const attached = activation === 'attached';
  return { value: { activation, layer: layerOf(activation), globs: attached ? globs : [], rawGlobs: attached ? rawGlobs : [] }, diagnostics: [] };
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
