/**
 * Canonical JSON (RFC 8785 subset): object keys sorted by UTF-16 code units,
 * no insignificant whitespace, integers only. Floats, NaN, undefined values
 * inside arrays and non-plain objects are refused, because their encodings
 * are not stable across implementations.
 */
import { InternalError } from './errors.js';

/**
 * The path to the value being encoded, as keys and indexes: kept as a stack and
 * joined only for an error message (a manifest has hundreds of thousands of
 * values; building each one's path string cost more than encoding it).
 */
const path: (string | number)[] = [];

export function canonicalJson(value: unknown): string {
  path.length = 0;
  return encode(value);
}

function where(): string {
  return `$${path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('')}`;
}

function encode(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'string':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isSafeInteger(value)) throw new InternalError(`canonical JSON: ${where()} is not a safe integer (${value})`);
      return Object.is(value, -0) ? '0' : String(value);
    case 'object':
      return Array.isArray(value) ? encodeArray(value) : encodeObject(value as Record<string, unknown>);
    default:
      throw new InternalError(`canonical JSON: ${where()} has unsupported type ${typeof value}`);
  }
}

function encodeArray(list: readonly unknown[]): string {
  const parts: string[] = [];
  for (let i = 0; i < list.length; i++) {
    path.push(i);
    parts.push(encode(list[i]));
    path.pop();
  }
  return `[${parts.join(',')}]`;
}

function encodeObject(obj: Record<string, unknown>): string {
  return `{${members(obj).map(([, text]) => text).join(',')}}`;
}

/** Each member of a plain object as `"key":value` text, in canonical (code-unit) key order. */
function members(obj: Record<string, unknown>): [key: string, text: string][] {
  const proto = Object.getPrototypeOf(obj);
  if (proto !== Object.prototype && proto !== null) throw new InternalError(`canonical JSON: ${where()} is not a plain object`);
  const keys = Object.keys(obj).filter((k) => obj[k] !== undefined).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return keys.map((k) => {
    path.push(k);
    const text = `${JSON.stringify(k)}:${encode(obj[k])}`;
    path.pop();
    return [k, text];
  });
}

/**
 * The canonical text of each top-level member of `obj`, in canonical order: one
 * encoding from which both a whole object's text and a subset's can be joined
 * (a manifest and its content without provenance).
 */
export function canonicalMembers(obj: Record<string, unknown>): [key: string, text: string][] {
  path.length = 0;
  return members(obj);
}
