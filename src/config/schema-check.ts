/**
 * JSON Schema validation (ajv, draft 2020-12) whose errors point at the
 * offending key's line and column in the YAML source, not at a JSON pointer.
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import { isMap, isSeq, LineCounter, parseDocument, type Node, type Range } from 'yaml';
import type { Span } from '../types.js';
import { diag, NO_SPAN, type Diagnostic } from '../diagnostics/diagnostic.js';
import { newAjv } from './ajv.js';

const cache = new Map<string, ValidateFunction>();

/**
 * Compile (once per $id) a schema object. ajv is loaded on first use only: the
 * policy and the manifest are checked by generated code (scripts/gen-validators.mjs),
 * so a command that compiles no other schema never loads it (about 100 ms).
 */
export function compileSchema(schema: Record<string, unknown>): ValidateFunction {
  const id = String(schema.$id ?? JSON.stringify(schema));
  let fn = cache.get(id);
  if (!fn) {
    fn = newAjv({ allErrors: true, strict: false }).compile(schema);
    cache.set(id, fn);
  }
  return fn;
}

export type Locate = (pointer: string) => Span;

/** Validate `data`; each error becomes a diagnostic `code` at `locate(instancePath)`. */
export function checkSchema(validate: ValidateFunction, data: unknown, file: string, code: string, locate: Locate): Diagnostic[] {
  if (validate(data)) return [];
  return (validate.errors ?? []).map((e) => diag(code, { file, range: locate(pointerOf(e)), message: describe(e) }));
}

function pointerOf(e: ErrorObject): string {
  const extra = e.keyword === 'additionalProperties' ? `/${(e.params as { additionalProperty: string }).additionalProperty}` : '';
  return `${e.instancePath}${extra}`;
}

function describe(e: ErrorObject): string {
  const where = e.instancePath ? e.instancePath.slice(1).split('/').join('.') : '(top level)';
  switch (e.keyword) {
    case 'additionalProperties':
      return `unknown key "${(e.params as { additionalProperty: string }).additionalProperty}"${e.instancePath ? ` in ${where}` : ''}`;
    case 'enum':
      return `${where} must be one of ${((e.params as { allowedValues: unknown[] }).allowedValues).map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return `${where} ${e.message ?? 'is invalid'}`;
  }
}

/** A locator over YAML source: JSON pointer → span of that key (or value) in the file. */
export function yamlLocator(source: string, lineOffset = 0): Locate {
  const lineCounter = new LineCounter();
  const doc = parseDocument(source, { lineCounter, prettyErrors: false, uniqueKeys: false, strict: false });
  const toSpan = (range: Range | null | undefined): Span => rangeSpan(lineCounter, range, lineOffset);
  return (pointer: string) => {
    let node: unknown = doc.contents;
    let best: Span = toSpan((doc.contents as Node | null)?.range);
    for (const raw of pointer.split('/').slice(1)) {
      const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
      if (isMap(node)) {
        const pair = node.items.find((p) => String((p.key as { value?: unknown } | null)?.value) === seg);
        if (!pair) break;
        best = toSpan((pair.key as Node | null)?.range);
        node = pair.value;
      } else if (isSeq(node)) {
        const item = node.items[Number(seg)] as Node | undefined;
        if (!item) break;
        best = toSpan(item.range);
        node = item;
      } else break;
    }
    return best;
  };
}

/** A YAML node's range (offsets, as the library keeps them) as a span of lines and columns. */
export function rangeSpan(lineCounter: LineCounter, range: Range | null | undefined, lineOffset = 0): Span {
  if (!range) return NO_SPAN;
  const a = lineCounter.linePos(range[0]);
  const b = lineCounter.linePos(range[1]);
  return { start: { line: a.line + lineOffset, col: a.col }, end: { line: b.line + lineOffset, col: b.col } };
}
