#!/usr/bin/env node
/**
 * Generates src/bundle/manifest-validator.gen.ts from schemas/manifest.schema.json
 * with ajv's standalone code (`validate` for manifest.json, `validate_<table>` for each part): reading a bundle then validates its manifest with
 * plain generated code instead of compiling the schema at start-up (about 250 ms
 * of ajv import and compile per process). Likewise src/config/policy-validator.gen.ts
 * from schemas/policy.schema.json, which every command that loads a policy checks
 * (an unchanged rebuild answered by the build cache did little else). And
 * src/validate/frontmatter-validators.gen.ts from schemas/frontmatter-*.schema.json,
 * which every build with a rule file's frontmatter checks (ajv's import and the
 * four schemas' compile took about 0.25 s of such a build).
 * test/manifest-validator-gen.test.ts fails when a committed file is not what
 * this script generates.
 *
 *   node scripts/gen-validators.mjs          # write the file
 *   node scripts/gen-validators.mjs --check  # exit 1 when it is stale
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2020Module from 'ajv/dist/2020.js';
import standaloneModule from 'ajv/dist/standalone/index.js';
import addFormatsModule from 'ajv-formats';
import { _ } from 'ajv';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const TARGET = join(ROOT, 'src', 'bundle', 'manifest-validator.gen.ts');
export const POLICY_TARGET = join(ROOT, 'src', 'config', 'policy-validator.gen.ts');
export const FRONTMATTER_TARGET = join(ROOT, 'src', 'validate', 'frontmatter-validators.gen.ts');

/** The manifest's validators: one export per file kind, the root (manifest.json) and each part (parts/<name>.json). */
export function generate() {
  return generateFor('manifest.schema.json', (id) => {
    const exports = { validate: id };
    for (const part of ['files', 'variants', 'attachments', 'index', 'conflicts', 'conflict_details', 'conflict_sources']) exports[`validate_${part}`] = `${id}#/$defs/part_${part}`;
    return exports;
  });
}

/** The policy's validator (`validate`). */
export function generatePolicy() {
  return generateFor('policy.schema.json', (id) => ({ validate: id }));
}

/**
 * Every frontmatter schema's validator, with the options of src/validate/check-frontmatter.ts
 * (verbose: its messages read the failed schema's title), and a table of them by `$id` with the
 * sha256 of the schema they were generated from: the check uses one only for that very schema.
 */
export function generateFrontmatter() {
  const files = readdirSync(join(ROOT, 'schemas')).filter((f) => /^frontmatter-.*\.schema\.json$/.test(f)).sort();
  const schemas = files.map((f) => JSON.parse(readFileSync(join(ROOT, 'schemas', f), 'utf8')));
  const exports = Object.fromEntries(schemas.map((s, i) => [`validate_${i}`, s.$id]));
  const table = schemas.map((s, i) => `  { id: ${JSON.stringify(s.$id)}, sha256: '${createHash('sha256').update(JSON.stringify(s)).digest('hex')}', validate: validate_${i} },`);
  // ajv-formats registered, as src/config/ajv.ts registers it for the check at run time.
  return generateFrom(files.map((f) => `schemas/${f}`).join(', '), schemas, exports, { strict: true, verbose: true }, true, [
    '/** Each schema\'s validator, by its `$id` and the sha256 of its JSON.stringify()d text. */',
    "export const FRONTMATTER_VALIDATORS: { id: string; sha256: string; validate: import('ajv').ValidateFunction }[] = [",
    ...table,
    '];',
  ]);
}

function generateFor(schemaFile, exportsOf) {
  const schema = JSON.parse(readFileSync(join(ROOT, 'schemas', schemaFile), 'utf8'));
  // The same options as src/config/schema-check.ts, so errors read the same.
  return generateFrom(`schemas/${schemaFile}`, [schema], exportsOf(schema.$id), { strict: false }, false, []);
}

/** ajv standalone code for `exports` of `schemas`, compiled with `options` (and ajv-formats' formats when `withFormats`). */
function generateFrom(source, schemas, exports, options, withFormats, trailer) {
  const Ajv2020 = Ajv2020Module.default ?? Ajv2020Module;
  const standaloneCode = standaloneModule.default ?? standaloneModule;
  const addFormats = addFormatsModule.default ?? addFormatsModule;
  const formats = withFormats ? { formats: _`require("ajv-formats/dist/formats").fullFormats` } : {};
  const ajv = new Ajv2020({ allErrors: true, ...options, code: { source: true, esm: true, lines: true, ...formats } });
  if (withFormats) addFormats(ajv);
  for (const schema of schemas) ajv.addSchema(schema);
  const raw = standaloneCode(ajv, exports);
  const usesEqual = raw.includes('require("ajv/dist/runtime/equal")');
  const usesFormats = raw.includes('require("ajv-formats/dist/formats")');
  const code = raw
    .replace(/^"use strict";/, '')
    .replaceAll('require("ajv/dist/runtime/ucs2length").default', 'ucs2length')
    .replaceAll('require("ajv/dist/runtime/ucs2length")', 'ucs2length')
    .replaceAll('require("ajv/dist/runtime/equal").default', 'equal')
    .replaceAll('require("ajv/dist/runtime/equal")', 'equal')
    .replaceAll('require("ajv-formats/dist/formats").fullFormats', 'fullFormats');
  if (code.includes('require(')) throw new Error('generated validator needs a runtime module this script does not import');
  return [
    `// Generated by scripts/gen-validators.mjs from ${source}: do not edit.`,
    '// @ts-nocheck',
    "import ucs2lengthModule from 'ajv/dist/runtime/ucs2length.js';",
    'const ucs2length = ucs2lengthModule.default ?? ucs2lengthModule;',
    ...(usesEqual ? ["import equalModule from 'ajv/dist/runtime/equal.js';", 'const equal = equalModule.default ?? equalModule;'] : []),
    ...(usesFormats ? ["import formatsModule from 'ajv-formats/dist/formats.js';", 'const { fullFormats } = formatsModule;'] : []),
    code.trim(),
    ...trailer,
    '',
  ].join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const [target, text] of [[TARGET, generate()], [POLICY_TARGET, generatePolicy()], [FRONTMATTER_TARGET, generateFrontmatter()]]) {
    if (process.argv.includes('--check')) {
      const current = readFileSync(target, 'utf8');
      if (current !== text) { console.error(`${target} is stale: run node scripts/gen-validators.mjs`); process.exit(1); }
    } else writeFileSync(target, text);
  }
}
