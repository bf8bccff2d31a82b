/**
 * Severity is decided here, once per policy, from the policy:
 * `severityDecision(policy)` says what a code is in this build, and every
 * place that needs it asks this one function — compile for the final
 * diagnostics, lint to skip rules turned off, conflict detection to give
 * events their severity (the event cap ranks them as they will be reported)
 * and to drop kinds turned off. Precedence: `severity: { RCxxxx: … }`, then
 * for a conflict code `conflicts.severity: { kind: … }`, then the catalogue.
 * `off` drops the finding (and the conflict event) everywhere.
 *
 * An accepted conflict (conflicts.overrides) keeps its severity: it is
 * recorded as a suppression (owner, reason, expiry) on the event and its
 * diagnostic, and a suppressed finding fails nothing (hasErrors). So the
 * manifest, the report and the exit code always agree.
 */
import type { Policy } from '../config/policy.js';
import { catalogueEntry } from '../diagnostics/catalogue.js';
import type { Diagnostic, Severity } from '../diagnostics/diagnostic.js';
import { CODE_OF, type ConflictKind } from '../diagnostics/conflict-codes.js';

export type Decision = (code: string) => Severity | 'off';

const KIND_OF = new Map(Object.entries(CODE_OF).map(([kind, code]) => [code, kind as ConflictKind]));

/** One decision per policy object: conflict detection asks for it per event, compile once per build. */
const decisions = new WeakMap<object, Decision>();

export function severityDecision(policy: Pick<Policy, 'severity' | 'conflicts'>): Decision {
  let decide = decisions.get(policy);
  if (!decide) decisions.set(policy, (decide = decisionOf(policy)));
  return decide;
}

function decisionOf(policy: Pick<Policy, 'severity' | 'conflicts'>): Decision {
  const byKind = (policy.conflicts?.severity ?? {}) as Partial<Record<ConflictKind, Severity>>;
  // A partial policy (diff rebuilds rulings from a manifest's facts) may carry no severity map.
  const byCode: Readonly<Record<string, Severity | 'off'>> = policy.severity ?? {};
  return (code) => {
    const own = Object.hasOwn(byCode, code) ? byCode[code] : undefined;
    if (own !== undefined) return own;
    const kind = KIND_OF.get(code);
    return (kind !== undefined ? byKind[kind] : undefined) ?? catalogueEntry(code).severity;
  };
}

/** The decided severity of every diagnostic; `off` ones are dropped. */
export function applySeverities(list: readonly Diagnostic[], decide: Decision): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const d of list) {
    const s = decide(d.code);
    if (s === 'off') continue;
    out.push(s !== d.severity ? { ...d, severity: s } : d);
  }
  return out;
}

/** The decided severity of a conflict kind; an event whose code is `off` is not recorded. */
export function eventSeverity(kind: ConflictKind, decide: Decision): Severity | 'off' {
  return decide(CODE_OF[kind]);
}
