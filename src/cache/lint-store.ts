/**
 * Lint results as the cache file `lint` holds them: JSON, an array of
 * [lintKey, { <rule code>: Diagnostic[] }] sorted by key, so the same results
 * always give the same bytes (lint-rules.ts says what a key covers and which
 * files are remembered: none with a detected secret). decodeLintMemo()
 * returns null for anything else (the file is then ignored as damaged), never
 * throws: every entry must have a 64-hex key, rule codes, and under each code
 * findings of that code in the one shape lint rules give (no other field, safe
 * positions, a range that does not end before it starts), or the whole file is
 * refused. lintWithMemo then uses an entry only when its codes are rules' and
 * its findings are about the file it is keyed by.
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { FileLint, LintMemo } from '../validate/lint-rules.js';
import { compareCodeUnits } from '../util/compare.js';
import { HEX64, jsonOf } from './cache-file.js';

const CODE = /^RC\d{4}$/;
const SEVERITIES = new Set(['error', 'warning', 'info']);

export function encodeLintMemo(memo: LintMemo): Buffer {
  const entries = [...memo].sort((a, b) => compareCodeUnits(a[0], b[0]));
  return Buffer.from(JSON.stringify(entries), 'utf8');
}

export function decodeLintMemo(body: Buffer): LintMemo | null {
  const value = jsonOf(body);
  if (value === undefined) return null;
  if (!Array.isArray(value)) return null;
  const memo: LintMemo = new Map();
  for (const entry of value) {
    if (!Array.isArray(entry) || entry.length !== 2 || typeof entry[0] !== 'string' || !HEX64.test(entry[0]) || memo.has(entry[0])) return null;
    const rules = entry[1] as unknown;
    if (typeof rules !== 'object' || rules === null || Array.isArray(rules)) return null;
    const file: FileLint = {};
    for (const [code, found] of Object.entries(rules)) {
      if (!CODE.test(code) || !Array.isArray(found) || !found.every((d) => isFinding(d, code))) return null;
      file[code] = found;
    }
    memo.set(entry[0], file);
  }
  return memo;
}

const FIELDS = new Set(['code', 'severity', 'file', 'range', 'message', 'hint', 'related']);
const isCount = (n: unknown): boolean => Number.isSafeInteger(n) && (n as number) >= 1;
const isSpan = (s: unknown): boolean => {
  const span = s as { start?: { line?: unknown; col?: unknown }; end?: { line?: unknown; col?: unknown } } | null;
  if (typeof span !== 'object' || span === null || Object.keys(span).length !== 2 || !isCount(span.start?.line) || !isCount(span.start?.col)
    || !isCount(span.end?.line) || !isCount(span.end?.col)) return false;
  const [a, b] = [span.start as { line: number; col: number }, span.end as { line: number; col: number }];
  return a.line < b.line || (a.line === b.line && a.col <= b.col);
};

/** A finding of rule `code` in the one shape lint rules give: nothing more, nothing less. */
function isFinding(d: unknown, code: string): d is Diagnostic {
  if (typeof d !== 'object' || d === null || Array.isArray(d)) return false;
  const x = d as Record<string, unknown>;
  const related = x.related;
  return Object.keys(x).every((k) => FIELDS.has(k)) && x.code === code && typeof x.severity === 'string' && SEVERITIES.has(x.severity)
    && typeof x.file === 'string' && typeof x.message === 'string' && isSpan(x.range) && (x.hint === undefined || typeof x.hint === 'string')
    && (related === undefined || (Array.isArray(related) && related.length > 0 && related.every((r) => typeof r === 'object' && r !== null
      && Object.keys(r).length === 3 && typeof (r as Record<string, unknown>).file === 'string' && typeof (r as Record<string, unknown>).message === 'string'
      && isSpan((r as Record<string, unknown>).range))));
}
