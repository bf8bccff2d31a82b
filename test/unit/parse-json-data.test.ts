import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { canonicalJson } from '../../src/util/canonical-json.js';
import { MAX_JSON_DEPTH, parseJsonData } from '../../src/util/parse-json-data.js';

const why = (input: Uint8Array | string): string | null => {
  const r = parseJsonData(input);
  return r.ok ? null : r.why;
};

describe('parseJsonData', () => {
  it.each<[string, Uint8Array | string, string | null]>([
    ['integers at every depth', '{"a":[1,-2,{"b":9007199254740991}],"c":null,"d":true,"e":"1.5"}', null],
    ['a fraction', '{"a":[1,{"b":1.5}]}', 'holds the number 1.5, which is not a safe integer'],
    ['an integer past 2^53', '[9007199254740993]', 'holds the number 9007199254740992, which is not a safe integer'],
    ['an exponent', '{"tokens":1e20}', 'holds the number 100000000000000000000, which is not a safe integer'],
    ['an overflow to Infinity', '{"tokens":1e400}', 'holds the number Infinity, which is not a safe integer'],
    ['a number under an own __proto__ key', '{"__proto__":{"x":2.5}}', 'holds the number 2.5, which is not a safe integer'],
    ['a top-level number', '0.5', 'holds the number 0.5, which is not a safe integer'],
    ['invalid JSON', '{"a":', 'is not valid JSON'],
    ['bytes that are not UTF-8', Buffer.from([0x22, 0x61, 0xff, 0x22]), 'is not valid UTF-8'],
    ['an overlong encoding', Buffer.from([0x22, 0xc0, 0xaf, 0x22]), 'is not valid UTF-8'],
    ['UTF-8 bytes', Buffer.from('{"é":"\u{1F600}"}'), null],
  ])('%s', (_name, input, expected) => {
    expect(why(input)).toBe(expected);
  });

  it('refuses nesting deeper than MAX_JSON_DEPTH, however deep, without overflowing the stack', () => {
    const nested = (depth: number): string => `${'['.repeat(depth)}1${']'.repeat(depth)}`;
    expect(why(nested(MAX_JSON_DEPTH))).toBeNull();
    for (const depth of [MAX_JSON_DEPTH + 1, 200_000]) expect(why(nested(depth))).toBe(`nests values deeper than ${MAX_JSON_DEPTH} levels`);
  });

  it('accepts exactly what canonical JSON can encode', () => {
    fc.assert(fc.property(fc.jsonValue(), (v) => {
      const text = JSON.stringify(v);
      const r = parseJsonData(Buffer.from(text));
      let encodable = true;
      try {
        canonicalJson(JSON.parse(text));
      } catch {
        encodable = false;
      }
      expect(r.ok).toBe(encodable);
    }), { numRuns: 300 });
  });
});
