/**
 * The frontmatter JSON Schemas shipped in schemas/, read once (I/O) so the
 * pure check in src/validate/check-frontmatter.ts can receive them as data:
 * rulec's own keys, and each format's schema named on its FormatSpec.
 */
import { FORMATS, type FrontmatterSchemaRef } from '../formats/formats.js';
import { readPackageJson } from './package-files.js';

export type FrontmatterSchemas = readonly Record<string, unknown>[];

/** rulec's own keys (id, enforce …), read in every format's frontmatter. */
export const RULEC_SCHEMA: Omit<FrontmatterSchemaRef, 'label'> = {
  id: 'https://rulec.dev/schemas/frontmatter-rulec-v1.json', file: 'schemas/frontmatter-rulec.schema.json',
};

/** rulec's schema file, then each format's, once each in table order. */
export function frontmatterSchemaFiles(): string[] {
  return [...new Set([RULEC_SCHEMA.file, ...FORMATS.flatMap((f) => (f.schema ? [f.schema.file] : []))])];
}

const loaded = new Map<string, FrontmatterSchemas>();

/** The schemas, read once per set of files (a format registered by a test may name another). */
export function loadFrontmatterSchemas(): FrontmatterSchemas {
  const files = frontmatterSchemaFiles();
  const key = files.join('\n');
  let schemas = loaded.get(key);
  if (!schemas) loaded.set(key, (schemas = Object.freeze(files.map((f) => readPackageJson(f)))));
  return schemas;
}
