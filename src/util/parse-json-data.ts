/**
 * Untrusted bytes → a JSON value that canonical JSON can encode, or why not.
 *
 * 1. Bytes must be valid UTF-8: decoding with U+FFFD substitution would let
 *    two different byte strings read as one text (one bundle id, one index).
 * 2. The text parses as JSON.
 * 3. Every number is a safe integer and nothing nests deeper than
 *    MAX_JSON_DEPTH: canonical JSON has no floats, and 1.5, 1e20 or 1e400
 *    (Infinity) are refused here, as data, rather than by the encoder as a
 *    bug when the value is encoded again.
 * Cheap enough for every lazy read: one validation pass over the bytes and one
 * walk over the parsed value, no re-encoding.
 */
import { isUtf8 } from 'node:buffer';

export type JsonData = { ok: true; value: unknown; text: string } | { ok: false; why: string };

export function parseJsonData(input: Uint8Array | string): JsonData {
  if (typeof input !== 'string' && !isUtf8(input)) return { ok: false, why: 'is not valid UTF-8' };
  const text = typeof input === 'string' ? input : Buffer.from(input.buffer, input.byteOffset, input.byteLength).toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, why: 'is not valid JSON' };
  }
  const why = unencodable(value);
  return why === null ? { ok: true, value, text } : { ok: false, why };
}

/** Deeper than anything rulec writes (a manifest nests a few levels); past it an encoder's or validator's recursion could overflow. */
export const MAX_JSON_DEPTH = 100;

/**
 * Why `value` holds something canonical JSON cannot encode: a number that is not a safe
 * integer, or nesting deeper than MAX_JSON_DEPTH; null when there is none. Iterative, so no
 * nesting overflows the stack here; `for…in` rather than Object.values, which allocates an
 * array per object and doubles the walk on a part of a few MB.
 */
function unencodable(value: unknown): string | null {
  const stack: unknown[] = [];
  const depths: number[] = [];
  let depth = 0;
  const check = (x: unknown): boolean => {
    if (typeof x === 'number') return Number.isSafeInteger(x);
    if (typeof x === 'object' && x !== null) {
      stack.push(x);
      depths.push(depth + 1);
    }
    return true;
  };
  const unsafe = (x: unknown): string => `holds the number ${String(x)}, which is not a safe integer`;
  if (!check(value)) return unsafe(value);
  while (stack.length > 0) {
    const v = stack.pop() as Record<string, unknown> | unknown[];
    depth = depths.pop() as number;
    if (depth > MAX_JSON_DEPTH) return `nests values deeper than ${MAX_JSON_DEPTH} levels`;
    if (Array.isArray(v)) {
      for (const x of v) if (!check(x)) return unsafe(x);
    } else {
      for (const k in v) {
        // JSON.parse makes "__proto__" an own key; reading it as v[k] would answer the prototype.
        const x = k === '__proto__' ? Object.getOwnPropertyDescriptor(v, k)?.value : v[k];
        if (!check(x)) return unsafe(x);
      }
    }
  }
  return null;
}
