import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { canonicalJson, canonicalMembers } from '../../src/util/canonical-json.js';
import { InternalError } from '../../src/util/errors.js';

describe('canonicalJson', () => {
  it.each<[string, unknown, string]>([
    ['null', null, 'null'],
    ['booleans', [true, false], '[true,false]'],
    ['integers', [0, 1, -1, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER], '[0,1,-1,9007199254740991,-9007199254740991]'],
    ['-0 as 0', [-0, { z: -0 }], '[0,{"z":0}]'],
    ['strings with escapes', ['a"b\\c\n\u0001é\u{1F600}'], '["a\\"b\\\\c\\n\\u0001é\u{1F600}"]'],
    ['empty containers', { a: [], b: {} }, '{"a":[],"b":{}}'],
    ['no whitespace when nested', { b: [1, { d: 2, c: [null] }], a: 'x y' }, '{"a":"x y","b":[1,{"c":[null],"d":2}]}'],
    ['undefined object values are left out', { a: undefined, b: 1 }, '{"b":1}'],
    ['null-prototype objects', Object.assign(Object.create(null) as object, { b: 1, a: 2 }), '{"a":2,"b":1}'],
  ])('%s', (_name, value, expected) => {
    expect(canonicalJson(value)).toBe(expected);
  });

  it('orders keys by UTF-16 code units, not by locale or code point', () => {
    const value = { '\uFFFF': 1, '\u{1F600}': 2, é: 3, a: 4, Z: 5, '': 6, aa: 7, 'a\u0000': 8, '10': 9, '9': 10 };
    // '\u{1F600}' is the surrogate pair D83D DE00, which sorts before U+FFFF by code unit
    // (by code point it would sort after).
    expect(canonicalJson(value)).toBe('{"":6,"10":9,"9":10,"Z":5,"a":4,"a\\u0000":8,"aa":7,"é":3,"\u{1F600}":2,"\uFFFF":1}');
  });

  it.each<[string, unknown]>([
    ['a float', 1.5],
    ['a float in an array', [1, 0.1]],
    ['NaN', { a: Number.NaN }],
    ['Infinity', [Number.POSITIVE_INFINITY]],
    ['an unsafe integer', 2 ** 53],
    ['undefined in an array', [1, undefined]],
    ['undefined at the top', undefined],
    ['a bigint', 1n],
    ['a function', { f: () => 1 }],
    ['a symbol', [Symbol('s')]],
    ['a Date', { d: new Date(0) }],
    ['a Map', new Map([['a', 1]])],
    ['a class instance', new (class Point { x = 1; })()],
  ])('refuses %s with InternalError', (_name, value) => {
    expect(() => canonicalJson(value)).toThrow(InternalError);
  });

  it('names where the refused value is', () => {
    expect(() => canonicalJson({ a: [1, { b: 0.5 }] })).toThrow('canonical JSON: $.a[1].b is not a safe integer (0.5)');
  });

  it('is a fixed point: canonicalJson(JSON.parse(canonicalJson(x))) = canonicalJson(x)', () => {
    const integralJson = fc.jsonValue().filter(function integral(v: unknown): boolean {
      if (typeof v === 'number') return Number.isSafeInteger(v);
      if (Array.isArray(v)) return v.every(integral);
      if (v !== null && typeof v === 'object') return Object.values(v).every(integral);
      return true;
    });
    fc.assert(
      fc.property(integralJson, (x) => {
        const once = canonicalJson(x);
        expect(canonicalJson(JSON.parse(once))).toBe(once);
        // Equal values encode equally whatever their key insertion order.
        expect(JSON.parse(once)).toEqual(JSON.parse(JSON.stringify(x)));
      }),
      { numRuns: 300 },
    );
  });

  it('does not depend on key insertion order', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ unit: 'binary', maxLength: 4 }), fc.integer()), (dict) => {
        const reversed = Object.fromEntries(Object.entries(dict).reverse());
        expect(canonicalJson(reversed)).toBe(canonicalJson(dict));
      }),
      { numRuns: 200 },
    );
  });

  it('gives what a plain recursive encoder gives, or refuses what it refuses, on any value', () => {
    // The reference: RFC 8785's rules for integers, written out, with no fast path.
    const reference = (v: unknown, inArray = false): string | undefined => {
      if (v === null) return 'null';
      if (typeof v === 'string' || typeof v === 'boolean') return JSON.stringify(v);
      if (typeof v === 'number') {
        if (!Number.isSafeInteger(v)) throw new Error('refused');
        return String(v === 0 ? 0 : v);
      }
      if (v === undefined && !inArray) return undefined;
      if (typeof v !== 'object') throw new Error('refused');
      if (Array.isArray(v)) return `[${v.map((x) => reference(x, true) ?? (() => { throw new Error('refused'); })()).join(',')}]`;
      const proto = Object.getPrototypeOf(v);
      if (proto !== Object.prototype && proto !== null) throw new Error('refused');
      const o = v as Record<string, unknown>;
      const keys = Object.keys(o).filter((k) => o[k] !== undefined).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      return `{${keys.map((k) => `${JSON.stringify(k)}:${reference(o[k])}`).join(',')}}`;
    };
    const key = fc.oneof(fc.string({ unit: 'binary', maxLength: 3 }), fc.constantFrom('__proto__', '0', '10', '9', '01', '4294967295', '', 'constructor'));
    const leaf = fc.oneof(fc.integer(), fc.double(), fc.string({ unit: 'binary', maxLength: 5 }), fc.boolean(), fc.constant(null), fc.constant(undefined),
      fc.constant(-0), fc.constant(2 ** 53), fc.constant(new Date(0)), fc.constant(1n), fc.constant(() => 1));
    const { value } = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(key, tie('value'), { maxKeys: 4 }), fc.dictionary(key, tie('value'), { maxKeys: 4, noNullPrototype: false })),
    }));
    fc.assert(fc.property(value, (v) => {
      let expected: string | undefined | 'refused';
      try {
        expected = reference(v, true);
      } catch {
        expected = 'refused';
      }
      if (expected === 'refused' || expected === undefined) expect(() => canonicalJson(v)).toThrow(InternalError);
      else expect(canonicalJson(v)).toBe(expected);
      if (v !== null && typeof v === 'object' && !Array.isArray(v) && expected !== 'refused' && expected !== undefined) {
        expect(`{${canonicalMembers(v as Record<string, unknown>).map(([, t]) => t).join(',')}}`).toBe(expected);
      }
    }), { numRuns: 2000 });
  });

  it('orders array-index keys by code unit too, and keeps a __proto__ key as data', () => {
    expect(canonicalJson({ 9: 'a', 10: 'b', '#': 'c' })).toBe('{"#":"c","10":"b","9":"a"}');
    expect(canonicalJson(JSON.parse('{"__proto__":1,"a":2}'))).toBe('{"__proto__":1,"a":2}');
  });
});
