/**
 * Canonical JSON (RFC 8785 subset): object keys sorted by UTF-16 code units,
 * no insignificant whitespace, integers only. Floats, NaN, undefined values
 * inside arrays and non-plain objects are refused, because their encodings
 * are not stable across implementations.
 *
 * For data values only — what JSON.parse and object literals make. A getter
 * that answers differently each time it is read, a Proxy or a non-enumerable
 * toJSON method may be read more than once, and its text is then not defined.
 */
import { InternalError } from './errors.js';

/**
 * The path to the value being encoded, as keys and indexes: kept as a stack and
 * joined only for an error message (a manifest has hundreds of thousands of
 * values; building each one's path string cost more than encoding it).
 */
const path: (string | number)[] = [];

export function canonicalJson(value: unknown): string {
  // Native JSON.stringify does the walk (2–5× faster on a manifest's parts); the encoder below
  // answers whatever it cannot vouch for, and says where a refused value is.
  try {
    const text = JSON.stringify(value, canonicalReplacer);
    if (typeof text === 'string') return text;
  } catch {
    // refused, or a shape only the encoder below orders right: it decides, and names the place
  }
  path.length = 0;
  return encode(value);
}

/** A key that JavaScript enumerates before every other, in numeric order (an array index). */
const INDEX_KEY = /^(?:0|[1-9][0-9]*)$/;

/**
 * JSON.stringify's replacer for canonical JSON: objects come out with their keys in code-unit
 * order, and anything the encoder would refuse throws. It sees each value after `toJSON`, so it
 * checks the value as the holder has it (`this[key]`): a Date is refused, not turned into a
 * string. An object with an array-index key (`"10"` before `"9"` by code unit, after it by
 * JavaScript's order) or a `__proto__` key throws too, and goes to the encoder.
 */
function canonicalReplacer(this: unknown, key: string, value: unknown): unknown {
  const raw = (this as Record<string, unknown>)[key];
  if (raw !== value) throw new Error('toJSON');
  if (value === null) return value;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (!Number.isSafeInteger(value)) throw new Error('number');
      return value;
    case 'undefined':
      // Left out of an object, as the encoder does; never allowed in an array (or at the top).
      if (Array.isArray(this) || key === '') throw new Error('undefined');
      return value;
    case 'object': {
      if (Array.isArray(value)) return value;
      if (!isPlain(value)) throw new Error('not plain');
      const keys = Object.keys(value);
      let ordered = true;
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i] as string;
        if (INDEX_KEY.test(k) || k === '__proto__') throw new Error('key order');
        if (i > 0 && (keys[i - 1] as string) > k) ordered = false;
      }
      if (ordered) return value;
      const out = Object.create(null) as Record<string, unknown>;
      for (const k of keys.sort()) out[k] = (value as Record<string, unknown>)[k];
      return out;
    }
    default:
      throw new Error('type');
  }
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

/** Whether `obj` is a plain object: what an object literal or JSON.parse makes, or Object.create(null). */
function isPlain(obj: object): boolean {
  const proto = Object.getPrototypeOf(obj);
  return proto === Object.prototype || proto === null;
}

/** A plain object's keys that hold a value, in canonical (code-unit) order. */
function memberKeys(obj: Record<string, unknown>): string[] {
  return Object.keys(obj).filter((k) => obj[k] !== undefined).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Each member of a plain object as `"key":value` text, in canonical (code-unit) key order. */
function members(obj: Record<string, unknown>): [key: string, text: string][] {
  if (!isPlain(obj)) throw new InternalError(`canonical JSON: ${where()} is not a plain object`);
  return memberKeys(obj).map((k) => {
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
  if (isPlain(obj)) {
    try {
      return memberKeys(obj).map((k) => [k, `${JSON.stringify(k)}:${canonicalJson(obj[k])}`]);
    } catch {
      // a refused member: the encoder below names it with its place
    }
  }
  path.length = 0;
  return members(obj);
}
