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

const RUNTIME = /\b(?<name>node(?:\.js|js)?|python|golang|go|rust|java|\.net|dotnet|ruby|deno|typescript|php|zig)\b(?:\*{1,2}|_{1,2})?(?<label>\s*:)?(?:\s*(?:version|v)\s*)?\s*(?<op>>=|≥|\^|~)?\s*v?(?<version>\d{1,3}(?:\.\d{1,3}){0,2})(?<plus>\+|\.x\b|\s+(?:or\s+(?:later|newer|higher|above|greater)|and\s+(?:up|above|later|newer)))?/gi;
const RANGE_AFTER = /^\s*(?:-|–|to|through|and|or|\/|,)\s*v?\d/i;
const MINIMUM_BEFORE = /\b(?:at least|minimum|min\.?|or newer|requires?)$/i;
const SUPPORT = /\bsupport(?:s|ed|ing)?\b|\bcompatib|\bmatrix\b|\bdeprecat|\bdrop(?:ped|ping)?\b|\bend[- ]of[- ]life\b|\beol\b/i;
const NAMES: Record<string, string> = { nodejs: 'node', 'node.js': 'node', golang: 'go', dotnet: '.net' };
/** Another minimum after a declared one, each with its remark: ", >= 1.25 (for dashboard-operator)". */
const ALSO_MINIMUM = /^\s*(?:\([^()]*\))?\s*(?:,|;|\bor\b)\s*(?:>=|≥)\s*v?(\d{1,3}(?:\.\d{1,3}){0,2})/i;
/** What marks a declared requirement: the runtime is the label that opens the clause. */
const LABEL_OPENS = /^[\s*_]*$/;
const DECLARED = ' (required)';

/**
 * A version is a requirement the file declares when the clause opens with the
 * runtime as a label ("**Go**: >= 1.26", a prerequisites list); any other
 * mention ("helpers for Python 3.13+", "Python >=3.12 style") is in passing.
 * A declared minimum disagrees with any other minimum that differs from it
 * ("use Go 1.24+" against "**Go**: >= 1.26"); two minimums in passing never
 * do, as what they say is seldom a requirement. A declared requirement may list several
 * minimums, each for a part of the repository ("…, >= 1.25 (for the
 * operator)"): it agrees with any of them.
 */
function extract(clause: Clause): Finding[] {
  if (!/\d/.test(clause.text)) return [];
  if (SUPPORT.test(clause.prose)) return [];
  const out: Finding[] = [];
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
    const declared = min && g.label !== undefined && LABEL_OPENS.test(clause.text.slice(0, at));
    const versions = [version.replace(/\.x$/, '')];
    for (let rest = after, more = ALSO_MINIMUM.exec(rest); declared && more; more = ALSO_MINIMUM.exec(rest)) {
      versions.push(more[1] ?? '');
      rest = rest.slice(more[0].length);
    }
    const value = `${runtime}@${versions.map((v) => `${min ? '>=' : ''}${v}`).join(', ')}${declared ? DECLARED : ''}`;
    out.push({ value, negated: negatedAt(clause, at), key: runtime, at });
  }
  return out;
}

/**
 * Compatible when one version is a prefix of the other or satisfies the
 * other's minimum — but two minimums of which one is declared only when they
 * are the same minimum (any of a declared list).
 */
export function versionsCompatible(a: string, b: string): boolean {
  const [, va = ''] = a.split('@');
  const [, vb = ''] = b.split('@');
  const declared = va.endsWith(DECLARED) || vb.endsWith(DECLARED);
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
