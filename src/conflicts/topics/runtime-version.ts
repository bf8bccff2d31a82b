/**
 * runtime-version: the language or runtime version to develop with (Node 20,
 * Python 3.12, Go 1.22 …), keyed by runtime. "Node >= 18" and "Python 3.10+"
 * are ranges; "3" and "3.12" are compatible (one is a prefix of the other).
 * Clauses about support matrices ("supports Python 3.9 to 3.13") describe
 * what the product runs on, not what to use, and are skipped.
 */
import type { Clause } from '../statements.js';
import type { Finding, TopicExtractor } from './types.js';
import { endsWith, negatedAt } from './text.js';

/** Whitespace between the parts of a version: bounded, so no two runs can trade spaces (a line of spaces stays linear). */
const WS = '[ \\t]{0,3}';
const EMPHASIS = '(?:\\*{1,2}|_{1,2})';
const RUNTIME = new RegExp(String.raw`(?<![A-Za-z0-9])(?<name>node(?:\.js|js)?|python|golang|go|rust|java|\.net|dotnet|ruby|deno|typescript|php|zig)(?![A-Za-z0-9])` +
  String.raw`${EMPHASIS}?(?:${WS}version)?(?<label>${WS}:${EMPHASIS}?)?${WS}(?<op>>=|≥|\^|~)?${WS}v?(?<version>\d{1,3}(?:\.\d{1,3}){0,2})` +
  String.raw`(?<plus>\+|\.x(?![A-Za-z0-9])|[ \t]{1,3}(?:or[ \t]{1,3}(?:later|newer|higher|above|greater)|and[ \t]{1,3}(?:up|above|later|newer))(?![A-Za-z]))?`, 'gi');
const RANGE_AFTER = /^\s*(?:-|–|to|through|and|or|\/|,)\s*v?\d/i;
const MINIMUM_BEFORE = /\b(?:at least|minimum|min\.?|or newer|requires?)$/i;
const SUPPORT = /\bsupport(?:s|ed|ing)?\b|\bcompatib|\bmatrix\b|\bdeprecat|\bdrop(?:ped|ping)?\b|\bend[- ]of[- ]life\b|\beol\b/i;
const NAMES: Record<string, string> = { nodejs: 'node', 'node.js': 'node', golang: 'go', dotnet: '.net' };
/** Another minimum after a declared one, each with its remark: ", >= 1.25 (for dashboard-operator)". */
const ALSO_MINIMUM = new RegExp(String.raw`^${WS}(?:\([^()]*\)${WS})?(?:,|;|or(?![A-Za-z]))${WS}(?:>=|≥)${WS}v?(\d{1,3}(?:\.\d{1,3}){0,2})`, 'i');
/** Where a clause's text begins after list emphasis: a declared requirement's runtime stands there. */
const OPENING = /[^\s*_]/;
const DECLARED = ' (required)';

/**
 * A version is a requirement the file declares when the clause opens with the
 * runtime as a label ("**Go**: >= 1.26", a prerequisites list); any other
 * mention ("helpers for Python 3.13+", "Python >=3.12 style", "the built-in
 * test runner (Node 20+)") is in passing. The two are keyed apart (`go`,
 * `go-required`) and never compared: on the corpus, minimums in passing were
 * seldom requirements, and one beside a declared minimum is no evidence
 * either way.
 * Two declared minimums disagree when they differ; two minimums in passing
 * never do. A declared requirement may list several
 * minimums, each for a part of the repository ("…, >= 1.25 (for the
 * operator)"): it agrees with any of them.
 */
function extract(clause: Clause): Finding[] {
  if (!/\d/.test(clause.text)) return [];
  if (SUPPORT.test(clause.prose)) return [];
  const out: Finding[] = [];
  const opens = clause.text.search(OPENING);
  for (const m of clause.text.matchAll(RUNTIME)) {
    const g = m.groups ?? {};
    const name = (g.name ?? '').toLowerCase();
    const runtime = NAMES[name] ?? name;
    const version = g.version ?? '';
    // "go 1.22" needs a minor version: "go 2 directories up" is a verb.
    if (runtime === 'go' && name === 'go' && !version.includes('.')) continue;
    const at = m.index ?? 0;
    const after = clause.text.slice(at + m[0].length);
    if (RANGE_AFTER.test(after)) continue;
    const min = g.op !== undefined || g.plus !== undefined || endsWith(clause.text.slice(0, at), MINIMUM_BEFORE);
    const declared = min && g.label !== undefined && at === opens;
    const versions = [version.replace(/\.x$/, '')];
    for (let rest = after, more = ALSO_MINIMUM.exec(rest); declared && more; more = ALSO_MINIMUM.exec(rest)) {
      versions.push(more[1] ?? '');
      rest = rest.slice(more[0].length);
    }
    const value = `${runtime}@${versions.map((v) => `${min ? '>=' : ''}${v}`).join(', ')}${declared ? DECLARED : ''}`;
    out.push({ value, negated: negatedAt(clause, at), key: declared ? `${runtime}-required` : runtime, at });
  }
  return out;
}

/**
 * Compatible when one version is a prefix of the other or satisfies the
 * other's minimum — but two declared minimums only when they are the same
 * minimum (any of a declared list).
 */
export function versionsCompatible(a: string, b: string): boolean {
  const [, va = ''] = a.split('@');
  const [, vb = ''] = b.split('@');
  const declared = va.endsWith(DECLARED) && vb.endsWith(DECLARED);
  const alternatives = (v: string): string[] => v.replace(DECLARED, '').split(', ');
  return alternatives(va).some((x) => alternatives(vb).some((y) => (declared && x.startsWith('>=') && y.startsWith('>=') ? sameMinimum(x, y) : compatibleVersions(x, y))));
}

const num = (v: string): number[] => v.replace('>=', '').split('.').map(Number);

function ge(x: number[], y: number[]): boolean {
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d > 0;
  }
  return true;
}

function sameMinimum(x: string, y: string): boolean {
  return ge(num(x), num(y)) && ge(num(y), num(x));
}

function compatibleVersions(va: string, vb: string): boolean {
  if (va.startsWith('>=') && vb.startsWith('>=')) return true;
  if (va.startsWith('>=')) return ge(num(vb), num(va));
  if (vb.startsWith('>=')) return ge(num(va), num(vb));
  const x = num(va);
  const y = num(vb);
  return x.slice(0, Math.min(x.length, y.length)).every((n, i) => n === y[i]);
}

export const runtimeVersion: TopicExtractor = {
  topic: 'runtime-version',
  description: 'the language or runtime version to develop with',
  exclusive: true,
  extract,
  compatible: versionsCompatible,
};
