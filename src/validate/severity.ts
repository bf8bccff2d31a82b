/** Policy severity overrides: change a code's severity, or drop it with `off`. */
import type { Diagnostic, Severity } from '../diagnostics/diagnostic.js';

export function applySeverities(list: readonly Diagnostic[], overrides: Readonly<Record<string, Severity | 'off'>>): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const d of list) {
    const s = overrides[d.code];
    if (s === 'off') continue;
    out.push(s && s !== d.severity ? { ...d, severity: s } : d);
  }
  return out;
}
