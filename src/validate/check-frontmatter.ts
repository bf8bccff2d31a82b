/**
 * Frontmatter against the JSON Schema of its format (pure: the schemas are passed in,
 * see src/config/frontmatter-schemas.ts).
 *
 * 1. Pick the schema: the one on the format's spec (src/formats/formats.ts: .claude/rules
 *    → claude-rule, .cursor/rules/*.mdc → cursor-rule, .github/instructions →
 *    copilot-instructions), managed files → rulec's own keys only.
 *    Formats with no frontmatter of their own (AGENTS.md, CLAUDE.md, GEMINI.md, imported
 *    files …) are checked for rulec's keys only; any other key there is left alone, because
 *    no agent defines one and rulec cannot call it a typo.
 * 2. Validate with ajv (2020-12): a shipped schema by the code generated from it
 *    (frontmatter-validators.gen.ts, used only for the very schema passed in: same `$id`,
 *    same sha256, with every schema of the generated set passed in unchanged, as they
 *    `$ref` each other); any other schema (a format registered by a test) is compiled.
 *    Where a value may take several shapes (anyOf), report the branch of the value's own
 *    type, so `paths: [1]` points at the item, not at the key.
 * 3. Unknown keys → RC4003 (warning) at the key, with the nearest known key as a hint;
 *    wrong types or values → RC4002 at the key (top level) or the item (nested).
 *    A key another agent's rule format defines (`description`, `globs`, `alwaysApply`,
 *    `applyTo` …) is not unknown: teams write one header for several agents. It is
 *    reported only when it is a scoping key standing in for this format's own
 *    (`globs:` in a .claude/rules file without `paths:`): this agent ignores it, so
 *    the rule is not scoped the way its author wrote.
 * 4. `enforce: true` outside the managed layer → RC4004: only managed files can enforce.
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { FormatName, ParsedDoc, SourceFile, Span } from '../types.js';
import type { FrontmatterSchemas } from '../config/frontmatter-schemas.js';
import { diag, NO_SPAN, type Diagnostic } from '../diagnostics/diagnostic.js';
import { yamlLocator, type Locate } from '../config/schema-check.js';
import { FORMATS, formatSpec, type FrontmatterSchemaRef } from '../formats/formats.js';
import { RULEC_SCHEMA } from '../config/frontmatter-schemas.js';
import { newAjv } from '../config/ajv.js';
import { sha256Hex } from '../util/hash.js';
import { nearest } from '../util/nearest.js';
import { FRONTMATTER_VALIDATORS } from './frontmatter-validators.gen.js';

/** Managed files are rulec's own: their whole header is checked against rulec's schema. */
const MANAGED: FrontmatterSchemaRef = { id: RULEC_SCHEMA.id, file: RULEC_SCHEMA.file, label: 'a managed file' };

/** Which schema checks a format (its spec's), and how a message names the format. */
function schemaOf(format: FormatName): FrontmatterSchemaRef | undefined {
  return format === 'managed' ? MANAGED : formatSpec(format)?.schema;
}

interface Checker {
  validate(id: string): ValidateFunction;
  /** Top-level keys a schema defines (its own and rulec's). */
  keysOf(id: string): string[];
  /** Keys some format's schema defines: written for another agent, not a typo. */
  anyFormatKeys: Set<string>;
  rulecKeys: string[];
}

const checkers = new WeakMap<FrontmatterSchemas, Checker>();

function checkerFor(schemas: FrontmatterSchemas): Checker {
  let c = checkers.get(schemas);
  if (c) return c;
  const byId = new Map(schemas.map((s) => [String(s.$id), s]));
  const propsOf = (s: Record<string, unknown> | undefined): string[] => Object.keys((s?.properties ?? {}) as object);
  const rulec = byId.get(RULEC_SCHEMA.id) as { $defs?: { keys?: Record<string, unknown> } } | undefined;
  const rulecKeys = propsOf(rulec?.$defs?.keys);
  const compiled = new Map<string, ValidateFunction>(generatedFor(byId));
  // ajv itself (0.1 s to load) only for a schema no generated validator was made from.
  let ajv: ReturnType<typeof newAjv> | null = null;
  c = {
    validate(id) {
      let fn = compiled.get(id);
      if (!fn) {
        if (!ajv) {
          ajv = newAjv({ allErrors: true, strict: true, verbose: true });
          for (const s of schemas) ajv.addSchema(s);
        }
        fn = ajv.getSchema(id);
        if (!fn) throw new Error(`frontmatter schema ${id} was not passed in`);
        compiled.set(id, fn);
      }
      return fn;
    },
    keysOf: (id) => [...propsOf(byId.get(id)), ...rulecKeys],
    anyFormatKeys: new Set([MANAGED, ...FORMATS.map((f) => f.schema)].flatMap((f) => (f ? propsOf(byId.get(f.id)) : []))),
    rulecKeys,
  };
  checkers.set(schemas, c);
  return c;
}

/** The generated validators, by `$id`, when every schema they were generated from is passed in unchanged; else none. */
function generatedFor(byId: ReadonlyMap<string, Record<string, unknown>>): [string, ValidateFunction][] {
  const same = FRONTMATTER_VALIDATORS.every((g) => {
    const s = byId.get(g.id);
    return s !== undefined && sha256Hex(JSON.stringify(s)) === g.sha256;
  });
  return same ? FRONTMATTER_VALIDATORS.map((g) => [g.id, g.validate]) : [];
}

/** checkFrontmatter() over every file that has a parsed document. */
export function checkAllFrontmatter(files: readonly SourceFile[], docs: ReadonlyMap<string, ParsedDoc>, schemas: FrontmatterSchemas): Diagnostic[] {
  return files.flatMap((file) => {
    const doc = docs.get(file.id);
    return doc ? checkFrontmatter(file, doc, schemas) : [];
  });
}

export function checkFrontmatter(file: SourceFile, doc: ParsedDoc, schemas: FrontmatterSchemas): Diagnostic[] {
  const data = doc.frontmatter;
  if (data === null || typeof data !== 'object' || Object.keys(data).length === 0) return [];
  const checker = checkerFor(schemas);
  const spec = schemaOf(file.format);
  // Formats without frontmatter of their own: only rulec's keys are checked.
  const checked = spec ? data : pick(data, checker.rulecKeys);
  const id = spec?.id ?? RULEC_SCHEMA.id;
  const validate = checker.validate(id);
  const diagnostics: Diagnostic[] = [];
  const where = locator(doc);
  if (!validate(checked)) {
    const seen = new Set<string>();
    const ownScope = formatSpec(file.format)?.globKey;
    const scopeKeys = new Set<string>(FORMATS.map((f) => f.globKey).filter((k) => k !== undefined));
    // An empty scoping key (`globs:` with no value) scopes nothing for anyone: nothing to say.
    const standsIn = (key: string): boolean => scopeKeys.has(key) && ownScope !== undefined && !Object.hasOwn(data, ownScope)
      && data[key] !== null && data[key] !== '' && !(Array.isArray(data[key]) && data[key].length === 0);
    const otherAgents = (key: string): boolean => checker.anyFormatKeys.has(key) && !standsIn(key);
    for (const e of narrowAlternatives(validate.errors ?? [])) {
      const unknown = unknownKeyOf(e) ?? '';
      if (otherAgents(unknown)) continue;
      let d = toDiagnostic(e, file.id, checked, where, spec?.label ?? '', checker.keysOf(id));
      if (scopeKeys.has(unknown) && ownScope !== undefined) {
        d = { ...d, message: `${unknown}: scopes another agent's rules; ${spec?.label ?? 'this file'} is scoped by ${ownScope}: and ignores ${unknown}:`, hint: `add ${ownScope}: with the same globs` };
      }
      const key = `${d.code}\0${d.range.start.line}:${d.range.start.col}\0${d.message}`;
      if (!seen.has(key)) diagnostics.push(d);
      seen.add(key);
    }
  }
  for (const k of spec?.scalarKeys ?? []) {
    if (Array.isArray(data[k.key])) diagnostics.push(diag('RC4005', { file: file.id, range: where(`/${escapePointer(k.key)}`), message: k.message, hint: k.hint }));
  }
  if (data.enforce === true && file.layer !== 'managed') {
    diagnostics.push(diag('RC4004', { file: file.id, range: where('/enforce'), message: `enforce: true has no effect in a ${file.layer}-layer file; only managed files can enforce rules` }));
  }
  return diagnostics;
}

function pick(data: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (Object.prototype.hasOwnProperty.call(data, k)) out[k] = data[k];
  return out;
}

/**
 * Of an anyOf's branch errors keep those of the one branch whose type fits
 * the value (`paths: [1]` → the list branch's item error); when no single
 * branch fits, keep only the anyOf error itself (`paths: 42`).
 */
function narrowAlternatives(errors: readonly ErrorObject[]): ErrorObject[] {
  let out = [...errors];
  for (const alt of errors.filter((e) => e.keyword === 'anyOf')) {
    const prefix = `${alt.schemaPath}/`;
    const branchOf = (e: ErrorObject): number => (e.schemaPath.startsWith(prefix) ? Number(e.schemaPath.slice(prefix.length).split('/')[0]) : -1);
    const count = Array.isArray(alt.schema) ? alt.schema.length : 0;
    const misfit = new Set(out.filter((e) => e.keyword === 'type' && e.instancePath === alt.instancePath && e.schemaPath === `${prefix}${branchOf(e)}/type`).map(branchOf));
    const fitting = [...Array(count).keys()].filter((i) => !misfit.has(i));
    if (fitting.length === 1) out = out.filter((e) => e !== alt && (branchOf(e) < 0 || branchOf(e) === fitting[0]));
    else out = out.filter((e) => branchOf(e) < 0);
  }
  return out;
}

/** The key an unknown-key error names, or null for any other error. */
function unknownKeyOf(e: ErrorObject): string | null {
  if (e.keyword !== 'unevaluatedProperties' && e.keyword !== 'additionalProperties') return null;
  const params = e.params as { unevaluatedProperty?: string; additionalProperty?: string };
  return e.instancePath === '' ? params.unevaluatedProperty ?? params.additionalProperty ?? null : null;
}


function toDiagnostic(e: ErrorObject, file: string, data: unknown, where: (pointer: string) => Span, label: string, known: string[]): Diagnostic {
  if (e.keyword === 'unevaluatedProperties' || e.keyword === 'additionalProperties') {
    const params = e.params as { unevaluatedProperty?: string; additionalProperty?: string };
    const key = params.unevaluatedProperty ?? params.additionalProperty ?? '';
    const near = nearest(key, known);
    return diag('RC4003', {
      file,
      range: where(`${e.instancePath}/${escapePointer(key)}`),
      message: `unknown frontmatter key "${key}": ${label} reads ${known.join(', ')}`,
      ...(near ? { hint: `did you mean "${near}"?` } : {}),
    });
  }
  const expected = expectation(e);
  const value = valueAt(data, e.instancePath);
  return diag('RC4002', { file, range: where(e.instancePath), message: `${nameOf(e.instancePath)} must be ${expected}, not ${describeValue(value)}` });
}

/** What a failed schema asks for: its title when it has one, else a phrase from its type. */
function expectation(e: ErrorObject): string {
  const s = (e.parentSchema ?? {}) as { title?: unknown; type?: unknown; enum?: unknown[] };
  if (typeof s.title === 'string') return s.title;
  if (Array.isArray(s.enum)) return `one of ${s.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  const types = Array.isArray(s.type) ? s.type : [s.type];
  const words: Record<string, string> = { string: 'a string', array: 'a list', boolean: 'true or false', number: 'a number', integer: 'an integer', null: 'empty', object: 'a mapping' };
  const phrases = types.filter((t): t is string => typeof t === 'string').map((t) => words[t] ?? t);
  return phrases.length > 0 ? phrases.join(' or ') : 'valid';
}

function describeValue(v: unknown): string {
  if (v === null || v === undefined) return 'empty';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  return String(v);
}

/** `/paths/0` → `paths[0]`. */
function nameOf(pointer: string): string {
  const segs = pointer.split('/').slice(1).map(unescapePointer);
  return segs.map((s, i) => (i > 0 && /^\d+$/.test(s) ? `[${s}]` : i > 0 ? `.${s}` : s)).join('') || 'frontmatter';
}

function valueAt(data: unknown, pointer: string): unknown {
  let v = data;
  for (const seg of pointer.split('/').slice(1).map(unescapePointer)) {
    if (v === null || typeof v !== 'object' || !Object.prototype.hasOwnProperty.call(v, seg)) return undefined;
    v = (v as Record<string, unknown>)[seg];
  }
  return v;
}

const escapePointer = (s: string): string => s.replace(/~/g, '~0').replace(/\//g, '~1');
const unescapePointer = (s: string): string => s.replace(/~1/g, '/').replace(/~0/g, '~');

/**
 * Pointer → span in the file: a top-level key from the parser's key spans
 * (right for leniently read Cursor headers too), anything deeper from a YAML
 * locator over the frontmatter lines (line 1 of the block is line 2 of the file).
 */
function locator(doc: ParsedDoc): (pointer: string) => Span {
  let yaml: Locate | null = null;
  return (pointer) => {
    const segs = pointer.split('/').slice(1).map(unescapePointer);
    const top = segs[0] === undefined ? undefined : doc.frontmatterKeys[segs[0]];
    if (top && segs.length === 1) return top;
    yaml ??= yamlLocator(frontmatterSource(doc.text), 1);
    const span = yaml(pointer);
    return span === NO_SPAN && top ? top : span;
  };
}

/** The YAML between the opening `---` line and the first closing `---` line. */
function frontmatterSource(text: string): string {
  const lines = text.split('\n');
  const close = lines.findIndex((l, i) => i > 0 && /^---[ \t]*$/.test(l));
  return lines.slice(1, close < 0 ? lines.length : close).join('\n');
}
