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

const RUNTIME = /\b(node(?:\.js|js)?|python|golang|go|rust|java|\.net|dotnet|ruby|deno|typescript|php|zig)\b(?:\s*(?:version|v)\s*)?\s*(>=|≥|\^|~)?\s*v?(\d{1,3}(?:\.\d{1,3}){0,2})(\+|\.x\b|\s+(?:or\s+(?:later|newer|higher|above|greater)|and\s+(?:up|above|later|newer)))?/gi;
const RANGE_AFTER = /^\s*(?:-|–|to|through|and|or|\/|,)\s*v?\d/i;
const MINIMUM_BEFORE = /\b(?:at least|minimum|min\.?|or newer|requires?)$/i;
const SUPPORT = /\bsupport(?:s|ed|ing)?\b|\bcompatib|\bmatrix\b|\bdeprecat|\bdrop(?:ped|ping)?\b|\bend[- ]of[- ]life\b|\beol\b/i;
const NAMES: Record<string, string> = { nodejs: 'node', 'node.js': 'node', golang: 'go', dotnet: '.net' };

function extract(clause: Clause): Finding[] {
  if (!/\d/.test(clause.text)) return [];
  if (SUPPORT.test(clause.prose)) return [];
  const out: Finding[] = [];
  for (const m of clause.text.matchAll(RUNTIME)) {
    const name = (m[1] ?? '').toLowerCase();
    const runtime = NAMES[name] ?? name;
    const version = m[3] ?? '';
    // "go 1.22" needs a minor version: "go 2 directories up" is a verb.
    if (runtime === 'go' && name === 'go' && !version.includes('.')) continue;
    const at = m.index ?? 0;
    const after = clause.text.slice(at + m[0].length);
    if (RANGE_AFTER.test(after)) continue;
    const min = m[2] !== undefined || m[4] !== undefined || endsWith(clause.text.slice(0, at), MINIMUM_BEFORE);
    out.push({ value: `${runtime}@${min ? '>=' : ''}${version.replace(/\.x$/, '')}`, negated: negatedAt(clause, at), key: runtime, at });
  }
  return out;
}

/** Compatible when one version is a prefix of the other, or satisfies the other's minimum. */
export function versionsCompatible(a: string, b: string): boolean {
  const [, va = ''] = a.split('@');
  const [, vb = ''] = b.split('@');
  const num = (v: string): number[] => v.replace('>=', '').split('.').map(Number);
  const ge = (x: number[], y: number[]): boolean => {
    for (let i = 0; i < Math.max(x.length, y.length); i++) {
      const d = (x[i] ?? 0) - (y[i] ?? 0);
      if (d !== 0) return d > 0;
    }
    return true;
  };
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
