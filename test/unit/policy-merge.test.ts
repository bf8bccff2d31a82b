/**
 * mergePolicy lays a repository's policy over the built-in one. The keys come from a file a pull
 * request can change, so `__proto__` is a key like any other: an own property, never the
 * object's prototype, and refused by the schema with its position like any unknown key.
 */
import { describe, expect, it } from 'vitest';
import { builtInPolicy } from '../../src/config/load-policy.js';
import { readPackageJson } from '../../src/config/package-files.js';
import { mergePolicy } from '../../src/config/policy.js';
import { validatePolicy } from '../../src/config/validate-policy.js';

const check = (text: string) => validatePolicy('.rulec/policy.yaml', text, builtInPolicy(), readPackageJson('schemas/policy.schema.json'));
const findings = (text: string): string[] => check(text).diagnostics.map((d) => `${d.range.start.line}:${d.range.start.col} ${d.code} ${d.message}`);

describe('mergePolicy', () => {
  it('merges a __proto__ key as an own key, leaving the prototype alone', () => {
    const merged = mergePolicy({ a: { b: 1 } }, JSON.parse('{"a": {"__proto__": {"c": 2}}, "__proto__": 5}')) as Record<string, Record<string, unknown>>;
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(merged.a)).toBe(Object.prototype);
    expect(merged).toEqual(JSON.parse('{"a": {"b": 1, "__proto__": {"c": 2}}, "__proto__": 5}'));
    expect(Object.keys(merged)).toEqual(['a', '__proto__']);
    expect(Object.keys(merged.a as object)).toEqual(['b', '__proto__']);
  });
});

describe('a __proto__ key in the policy', () => {
  it.each<[string, string[]]>([
    ['version: 1\n__proto__: 5\n', ['2:1 RC4001 unknown key "__proto__"']],
    ['version: 1\n__proto__: {}\n', ['2:1 RC4001 unknown key "__proto__"']],
    ['version: 1\n__proto__: {x: 1}\n', ['2:1 RC4001 unknown key "__proto__"']],
    ['version: 1\nbudgets: {__proto__: {variant_tokens: 1}}\n', ['2:11 RC4001 unknown key "__proto__" in budgets']],
    // As any other key that is not a code (`severity: {foo: …}` reads the same).
    ['version: 1\nseverity: {__proto__: {RC6003: "off"}}\n', [
      '2:1 RC4001 severity must match pattern "^RC[0-9]{4}$"',
      '2:1 RC4001 severity property name must be valid',
      '2:12 RC4001 severity.__proto__ must be one of "error", "warning", "info", "off"',
    ]],
  ])('%j is an unknown key at its position', (text, expected) => {
    expect(findings(text)).toEqual(expected);
    expect(check(text).value).toBeNull();
  });
});
