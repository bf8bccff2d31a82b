/** Parse and validate policy text (pure): YAML → merged over `base` → schema-checked. */
import { parseDocument } from 'yaml';
import type { ValidateFunction } from 'ajv';
import type { StageResult } from '../types.js';
import { diag, type Diagnostic } from '../diagnostics/diagnostic.js';
import { checkSchema, compileSchema, yamlLocator } from './schema-check.js';
import { mergePolicy, type Policy } from './policy.js';
import { policyChecks } from './policy-checks.js';
import { validate as generatedPolicyValidator } from './policy-validator.gen.js';

/** The $id of schemas/policy.schema.json, whose validator is generated (scripts/gen-validators.mjs). */
const POLICY_SCHEMA_ID = 'https://rulec.dev/schemas/policy-v1.json';

export function validatePolicy(file: string, text: string, base: Policy | null, schema: Record<string, unknown>): StageResult<Policy | null> {
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    const locate = yamlLocator(text);
    const diagnostics: Diagnostic[] = doc.errors.map((e) => diag('RC4001', { file, range: locate(''), message: `policy is not valid YAML: ${e.message.split('\n')[0]}` }));
    return { value: null, diagnostics };
  }
  const own = doc.toJS() ?? {};
  const merged = base ? mergePolicy(base, own) : own;
  // Report schema errors against the user's own text, where the keys live.
  const locate = yamlLocator(text);
  const validator = schema.$id === POLICY_SCHEMA_ID ? (generatedPolicyValidator as ValidateFunction) : compileSchema(schema);
  const diagnostics = checkSchema(validator, merged, file, 'RC4001', locate);
  // What the schema cannot say; one finding per key (a NaN is already "must be integer").
  const seen = new Set(diagnostics.map((d) => `${d.range.start.line}:${d.range.start.col}`));
  for (const d of policyChecks(own, file, locate)) if (!seen.has(`${d.range.start.line}:${d.range.start.col}`)) diagnostics.push(d);
  return { value: diagnostics.length === 0 ? (merged as Policy) : null, diagnostics };
}
