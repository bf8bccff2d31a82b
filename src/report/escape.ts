/**
 * Terminal hygiene: text from a file (its content or its name) must never
 * reach a terminal as control sequences. An ESC in a rule file could set the
 * clipboard (OSC 52), hide text (ESC[8m) or rewrite lines already printed; a
 * bidi override reorders what the reader sees ("Trojan Source"); a newline in
 * a file name forges a report line. Every text output passes file-derived
 * strings through `escapeControls`, which shows such characters in a visible
 * form (`\u001b`), keeps tabs, and keeps newlines only in multi-line text —
 * there a CR directly before LF stays too (a CRLF file's line end moves the
 * cursor to a fresh line, it cannot overwrite text); a lone CR is escaped.
 * JSON output escapes C0 already (JSON.stringify); `jsonText` escapes the rest
 * (DEL, C1, bidi controls, U+2028/2029) the same way — still valid JSON that
 * parses back to the same strings.
 */

// C0 except TAB and LF, DEL, C1, bidi controls (ALM, LRM, RLM, LRE…RLO, LRI…PDI), line/paragraph separators.
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;
const CONTROL_KEEP_LF = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]|\r(?!\n)/g;
const JSON_UNSAFE = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;
// Every character CONTROL_KEEP_LF may change (a CR before LF too): one character class, which a
// regular expression tests several times faster than CONTROL_KEEP_LF's lookahead runs. Nearly
// all output has none of them (explain's JSON on a large repository is megabytes), so the
// test usually answers alone.
const MAYBE_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;

/** `\u001b`: the visible form of one escaped character. */
export function visibleEscape(ch: string): string {
  return `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** Text for a terminal: control and bidi characters shown as `\uXXXX`; newlines kept unless `oneLine`. */
export function escapeControls(text: string, oneLine = false): string {
  if (!oneLine && (text === lastJson || !MAYBE_CONTROL.test(text))) return text;
  return text.replace(oneLine ? CONTROL : CONTROL_KEEP_LF, visibleEscape);
}

/** A single-line field (a path, a message, a glob): newlines escaped too, so no field can forge a report line. */
export function oneLine(text: string): string {
  return escapeControls(text, true);
}

/** How many characters `escapeControls` would change (for "N control characters shown escaped" notes). */
export function countControls(text: string): number {
  return text.match(CONTROL_KEEP_LF)?.length ?? 0;
}

/**
 * The text jsonText returned last. It is what escapeControls would return
 * for it (JSON.stringify escapes every C0 but the newlines between tokens,
 * jsonText the rest), so escapeControls, the CLI's last guard, knows it
 * without scanning it again: explain's JSON is megabytes.
 */
let lastJson: string | undefined;

/** JSON for stdout: JSON.stringify (2-space indent) with DEL, C1, bidi controls and U+2028/2029 escaped as well. */
export function jsonText(value: unknown): string {
  const text = JSON.stringify(value, null, 2);
  // Every character JSON_UNSAFE matches is DEL or above it: ASCII text without DEL has none.
  // UTF-8 is one byte per character exactly when every character is ASCII, which
  // Buffer.byteLength counts natively, far faster than a pattern scans megabytes.
  const safe = Buffer.byteLength(text, 'utf8') === text.length && !text.includes('\u007f') ? text : text.replace(JSON_UNSAFE, visibleEscape);
  lastJson = safe;
  return safe;
}

/**
 * Every string inside a JSON-like value made single-line-safe, for text
 * formatters that print its fields. A part with nothing to escape is returned
 * as it is, not copied: a build's report is megabytes of strings, nearly all
 * of them clean.
 */
export function escapeFields<T>(value: T): T {
  if (typeof value === 'string') return oneLine(value) as T;
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      const e = escapeFields(v);
      if (e !== v) (out ??= value.slice())[i] = e;
    }
    return (out ?? value) as T;
  }
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    let out: Record<string, unknown> | null = null;
    for (const [k, v] of Object.entries(value)) {
      const e = escapeFields(v);
      // defineProperty, not assignment: a key named __proto__ stays a key.
      if (e !== v) Object.defineProperty((out ??= { ...(value as Record<string, unknown>) }), k, { value: e, enumerable: true, writable: true, configurable: true });
    }
    return (out ?? value) as T;
  }
  return value;
}
