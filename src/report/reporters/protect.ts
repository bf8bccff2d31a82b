/**
 * The one safety pass every report goes through before a reporter sees it,
 * and the one pass over what a terminal-bound format prints:
 *
 * 1. `redactReport`: every string anywhere in the report (messages, code-frame
 *    lines, excerpts, rule lines, paths) has each detected secret replaced by
 *    its public prefix and length, so no format can print one.
 * 2. `escapeControls`: in every output, control characters other than
 *    newline and tab, and the bidirectional overrides that reorder what a
 *    reader sees, become visible `\u001b`-style escapes; for the text format
 *    `oneLineFields` escapes newlines inside fields too.
 *
 * Interim: the lead is landing one shared redaction and escaping mechanism;
 * when it lands, these two functions delegate to it and nothing else changes.
 */
import type { Report } from './types.js';

export interface Secret {
  /** The exact text that must never be printed. */
  value: string;
  /** What prints instead: a short public prefix and the length. */
  shown: string;
}

/** `ghp_…(40 chars)`: at most 4 leading characters, never more than a third of the value. */
export function secretOf(value: string): Secret {
  return { value, shown: `${value.slice(0, Math.min(4, Math.floor(value.length / 3)))}…(${value.length} chars)` };
}

function redactString(s: string, secrets: readonly Secret[]): string {
  let out = s;
  for (const x of secrets) if (out.includes(x.value)) out = out.split(x.value).join(x.shown);
  return out;
}

function walk(v: unknown, secrets: readonly Secret[]): unknown {
  if (typeof v === 'string') return redactString(v, secrets);
  if (Array.isArray(v)) return v.map((x) => walk(x, secrets));
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = Object.create(Object.getPrototypeOf(v) === null ? null : Object.prototype) as Record<string, unknown>;
    for (const [k, x] of Object.entries(v)) out[redactString(k, secrets)] = walk(x, secrets);
    return out;
  }
  return v;
}

/** A copy of the report with every secret replaced, keys included (a code frame is keyed by file). */
export function redactReport<T extends Report>(report: T, secrets: readonly Secret[]): T {
  // Longest first, so a secret that contains another is replaced whole.
  const usable = secrets.filter((s) => s.value.length >= 4).sort((a, b) => b.value.length - a.value.length);
  return usable.length === 0 ? report : (walk(report, usable) as T);
}

// C0 but tab and newline, DEL, C1, the bidi embeddings, overrides, isolates and marks, U+2028/2029.
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;

/** `\u001b`: the visible form of one escaped character; inside a JSON string it is that string's own escape. */
const visible = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * Every format's whole output: controls and bidi characters become `\uXXXX`
 * (newlines and tabs stay). Lossless for JSON and SARIF, whose strings hold
 * no raw C0 and read the escape back as the same character.
 */
export function escapeControls(text: string): string {
  return text.replace(CONTROLS, visible);
}

/** For the text format: every string field single-line as well, so a file name with a newline cannot forge a report line. */
export function oneLineFields<T>(value: T): T {
  if (typeof value === 'string') return value.replace(/[\n\r]/g, visible) as T;
  if (Array.isArray(value)) return value.map((v) => oneLineFields(v)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = Object.create(Object.getPrototypeOf(value) === null ? null : Object.prototype) as Record<string, unknown>;
    for (const [k, v] of Object.entries(value)) out[k] = oneLineFields(v);
    return out as T;
  }
  return value;
}
