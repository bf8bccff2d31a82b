/** Parse and validate policy text (pure): YAML → merged over `base` → schema-checked. */
import { LineCounter, parseDocument } from 'yaml';
import type { ValidateFunction } from 'ajv';
import type { StageResult } from '../types.js';
import { diag, type Diagnostic } from '../diagnostics/diagnostic.js';
import { checkSchema, compileSchema, rangeSpan, yamlLocator } from './schema-check.js';
import { plainYamlProblems } from './plain-yaml.js';
import { mergePolicy, type Policy } from './policy.js';
import { policyChecks } from './policy-checks.js';
import { validate as generatedPolicyValidator } from './policy-validator.gen.js';

/** The $id of schemas/policy.schema.json, whose validator is generated (scripts/gen-validators.mjs). */
const POLICY_SCHEMA_ID = 'https://rulec.dev/schemas/policy-v1.json';

export function validatePolicy(file: string, text: string, base: Policy | null, schema: Record<string, unknown>): StageResult<Policy | null> {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    const locate = yamlLocator(text);
    const diagnostics: Diagnostic[] = doc.errors.map((e) => diag('RC4001', { file, range: locate(''), message: `policy is not valid YAML: ${e.message.split('\n')[0]}` }));
    return { value: null, diagnostics };
  }
  // Only plain, finite data goes on: toJS() would build Sets, cycles and alias bombs (plain-yaml.ts).
  const shape = plainYamlProblems(doc);
  if (shape.length > 0) return { value: null, diagnostics: shape.map((p) => diag('RC4001', { file, range: rangeSpan(lineCounter, p.range), message: p.message })) };
  // plainYamlProblems bounds what aliases expand to, in the policy's own terms and with a position.
  const own = doc.toJS({ maxAliasCount: -1 }) ?? {};
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
