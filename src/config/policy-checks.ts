/**
 * Checks on a policy that JSON Schema cannot express (pure). Each finding is an
 * RC4001 at the offending key, so a bad policy is a configuration error
 * (exit 2) with a line and column, never an internal error later on:
 *
 * 1. Every number is a whole number within ±2^53: YAML's `.inf` and `1e400`
 *    pass a schema's "integer" and used to crash hashing the policy.
 * 2. Every code under `severity:` exists in the catalogue.
 * 3. Every `discover.exclude` glob parses.
 */
import { diag, type Diagnostic } from '../diagnostics/diagnostic.js';
import { findCatalogueEntry } from '../diagnostics/catalogue.js';
import { compileGlob } from '../resolve/glob-compile.js';
import type { Locate } from './schema-check.js';

export function policyChecks(own: unknown, file: string, locate: Locate): Diagnostic[] {
  const out: Diagnostic[] = [];
  const at = (pointer: string, message: string): void => void out.push(diag('RC4001', { file, range: locate(pointer), message }));
  for (const { pointer, value } of numbersIn(own)) {
    if (!Number.isFinite(value) || (Number.isInteger(value) && !Number.isSafeInteger(value))) {
      at(pointer, `${dotted(pointer)} must be a whole number below 2^53, got ${String(value)}`);
    }
  }
  const doc = (own ?? {}) as { severity?: unknown; discover?: { exclude?: unknown } };
  if (isObject(doc.severity)) {
    for (const code of Object.keys(doc.severity)) {
      if (/^RC[0-9]{4}$/.test(code) && !findCatalogueEntry(code)) at(`/severity/${code}`, `severity.${code}: no such diagnostic code (rulec explain-code lists them)`);
    }
  }
  if (isObject(doc.discover) && Array.isArray(doc.discover.exclude)) {
    doc.discover.exclude.forEach((glob: unknown, i: number) => {
      if (typeof glob !== 'string' || glob === '') return; // the schema reports these
      const compiled = compileGlob(glob);
      if (!compiled.ok) at(`/discover/exclude/${i}`, `discover.exclude[${i}] "${glob}" is not a valid glob: ${compiled.error}`);
    });
  }
  return out;
}

/** Every number in a YAML-derived value, with its JSON pointer; iterative, so nesting depth costs no stack. */
function numbersIn(root: unknown): { pointer: string; value: number }[] {
  const found: { pointer: string; value: number }[] = [];
  const stack: { pointer: string; value: unknown }[] = [{ pointer: '', value: root }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { pointer, value } = item;
    if (typeof value === 'number') found.push({ pointer, value });
    else if (Array.isArray(value)) value.forEach((v, i) => stack.push({ pointer: `${pointer}/${i}`, value: v }));
    else if (isObject(value)) for (const [k, v] of Object.entries(value)) stack.push({ pointer: `${pointer}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`, value: v });
  }
  return found;
}

function dotted(pointer: string): string {
  return pointer.slice(1).split('/').join('.');
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
