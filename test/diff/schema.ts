/** Validate values against the published schemas (ajv 2020, strict, every schema in schemas/ loaded for $refs). */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ErrorObject, ValidateFunction } from 'ajv';

type AjvCtor = typeof Ajv2020Module.default;
const Ajv2020 = ((Ajv2020Module as unknown as { default?: AjvCtor }).default ?? Ajv2020Module) as AjvCtor;
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: InstanceType<AjvCtor>) => void;

const SCHEMAS = join(import.meta.dirname, '..', '..', 'schemas');
let ajv: InstanceType<AjvCtor> | undefined;

function validator(id: string): ValidateFunction {
  if (!ajv) {
    ajv = new Ajv2020({ strict: true, allErrors: true });
    addFormats(ajv);
    for (const f of readdirSync(SCHEMAS).filter((n) => n.endsWith('.schema.json'))) ajv.addSchema(JSON.parse(readFileSync(join(SCHEMAS, f), 'utf8')) as object);
  }
  const v = ajv.getSchema(id);
  if (!v) throw new Error(`no schema ${id}`);
  return v;
}

/** The schema errors of `value` as JSON (after a JSON round trip, as a consumer reads it); [] when valid. */
function errorsOf(id: string, value: unknown): ErrorObject[] {
  const v = validator(id);
  return v(JSON.parse(JSON.stringify(value))) ? [] : [...(v.errors ?? [])];
}

export const validateDiff = (value: unknown): ErrorObject[] => errorsOf('https://rulec.dev/schemas/diff-v1.json', value);
export const validateCheck = (value: unknown): ErrorObject[] => errorsOf('https://rulec.dev/schemas/check-v1.json', value);
