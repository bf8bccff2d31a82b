/**
 * The frontmatter JSON Schemas shipped in schemas/, read once (I/O) so the
 * pure check in src/validate/check-frontmatter.ts can receive them as data.
 */
import { readPackageJson } from './package-files.js';

export type FrontmatterSchemas = readonly Record<string, unknown>[];

export const FRONTMATTER_SCHEMA_FILES: readonly string[] = [
  'schemas/frontmatter-rulec.schema.json',
  'schemas/frontmatter-claude-rule.schema.json',
  'schemas/frontmatter-cursor-rule.schema.json',
  'schemas/frontmatter-copilot-instructions.schema.json',
];

let loaded: FrontmatterSchemas | null = null;

export function loadFrontmatterSchemas(): FrontmatterSchemas {
  loaded ??= Object.freeze(FRONTMATTER_SCHEMA_FILES.map((f) => readPackageJson(f)));
  return loaded;
}
