/**
 * Canonical JSON (RFC 8785 subset): object keys sorted by UTF-16 code units,
 * no insignificant whitespace, integers only. Floats, NaN, undefined values
 * inside arrays and non-plain objects are refused, because their encodings
 * are not stable across implementations.
 */
import { InternalError } from '../diagnostics/errors.js';

export function canonicalJson(value: unknown): string {
  return encode(value, '$');
}

function encode(value: unknown, at: string): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'string':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isSafeInteger(value)) throw new InternalError(`canonical JSON: ${at} is not a safe integer (${value})`);
      return Object.is(value, -0) ? '0' : String(value);
    case 'object':
      if (Array.isArray(value)) return `[${value.map((v, i) => encode(v, `${at}[${i}]`)).join(',')}]`;
      return encodeObject(value as Record<string, unknown>, at);
    default:
      throw new InternalError(`canonical JSON: ${at} has unsupported type ${typeof value}`);
  }
}

function encodeObject(obj: Record<string, unknown>, at: string): string {
  const proto = Object.getPrototypeOf(obj);
  if (proto !== Object.prototype && proto !== null) throw new InternalError(`canonical JSON: ${at} is not a plain object`);
  const keys = Object.keys(obj).filter((k) => obj[k] !== undefined).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${keys.map((k) => `${JSON.stringify(k)}:${encode(obj[k], `${at}.${k}`)}`).join(',')}}`;
}
