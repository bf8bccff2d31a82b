/**
 * The lint catalogue as a table of small named rules, and the runner.
 *
 * runLint:
 *   1. for each rule whose code is not 'off', run it on every input;
 *   2. give each finding the configured severity for its code;
 *   3. keep at most MAX_PER_FILE findings of one rule in one file (a file with
 *      thousands of hits needs one fix, not thousands of lines of report); the
 *      last one kept says how many more there are;
 *   4. a rule that throws is a bug in rulec, never the user's fault: it becomes
 *      an RC9001 diagnostic for that file and the other rules still run;
 *   5. sort by (file, line, col, code) and drop duplicates.
 * A rule reads one file (its bytes, parse and place), so its findings are
 * remembered per file (lintWithMemo): a rebuild lints only the files whose
 * key (lintKey) changed. A file with a detected secret is never remembered,
 * nor a finding of a rule that threw (RC9001); a remembered entry is used only
 * when each of its findings is its rule's, about its file. Remembering never
 * replaces the secret scan: the build scans every file for its redactions.
 * Adding a rule is adding an entry to one of the family files in lint/.
 */
import { compareDiagnostics, diag, sortDiagnostics, type Diagnostic, type Severity } from '../diagnostics/diagnostic.js';
import { SECRET_RULES } from './lint/secrets.js';
import { HIDDEN_UNICODE_RULES } from './lint/hidden-unicode.js';
import { CONTROL_CHAR_RULES } from './lint/control-chars.js';
import { secretsOf } from './lint/secrets/find-secrets.js';
import { canonicalJson } from '../util/canonical-json.js';
import { sha256Hex } from '../util/hash.js';
import { compilerVersion } from '../config/package-files.js';
import { DANGEROUS_COMMAND_RULES } from './lint/dangerous-commands.js';
import { PROMPT_INJECTION_RULES } from './lint/prompt-injection.js';
import { FENCE_FORGERY_RULES } from './lint/fence-forgery.js';
import { TEXT_HYGIENE_RULES } from './lint/text-hygiene.js';

export type { LintInput, LintRule } from './lint/types.js';
import type { LintInput, LintRule } from './lint/types.js';

export const LINT_RULES: readonly LintRule[] = [
  ...SECRET_RULES,
  ...HIDDEN_UNICODE_RULES,
  ...CONTROL_CHAR_RULES,
  ...DANGEROUS_COMMAND_RULES,
  ...PROMPT_INJECTION_RULES,
  ...FENCE_FORGERY_RULES,
  ...TEXT_HYGIENE_RULES,
];

/** severityOf(code) returns the build's decision (src/validate/severity.ts) or 'off'; runs every rule on every input, never throws for any input text. */
export function runLint(inputs: readonly LintInput[], severityOf: (code: string) => Severity | 'off'): Diagnostic[] {
  return lintWithMemo(inputs, severityOf, new Map()).diagnostics;
}

/** One file's findings, by the code of each rule that ran on it (as the rule reports them, before severities). */
export type FileLint = Record<string, Diagnostic[]>;

/** Remembered lint results: lintKey(input) → its findings. */
export type LintMemo = Map<string, FileLint>;

export interface Linted {
  diagnostics: Diagnostic[];
  /** What to remember of this run: every file's findings but those with a detected secret or a failed rule. */
  memo: LintMemo;
}

/** runLint, taking each file's findings from `known` when it holds them for the file as it is now. */
export function lintWithMemo(inputs: readonly LintInput[], severityOf: (code: string) => Severity | 'off', known: ReadonlyMap<string, FileLint>): Linted {
  const rules = LINT_RULES.flatMap((rule) => {
    const severity = severityOf(rule.code);
    return severity === 'off' ? [] : [{ rule, severity }];
  });
  const out: Diagnostic[] = [];
  const memo: LintMemo = new Map();
  const version = compilerVersion();
  for (const input of inputs) {
    const key = lintKey(input, version);
    const was = rememberedFor(known.get(key), input);
    const now: FileLint = {};
    let failed = false;
    for (const { rule, severity } of rules) {
      const found = (was !== undefined && Object.hasOwn(was, rule.code) ? was[rule.code] : undefined) ?? runRule(rule, input);
      now[rule.code] = found;
      for (const d of found) {
        if (d.code !== rule.code) failed = true;
        out.push(d.code === rule.code ? { ...d, severity } : d);
      }
    }
    if (!failed && secretsOf(input.doc).length === 0) memo.set(key, now);
  }
  return { diagnostics: sortDiagnostics(out), memo };
}

/** `entry` when every finding in it is its rule's and about this file (anything else is not this file's memory). */
function rememberedFor(entry: FileLint | undefined, input: LintInput): FileLint | undefined {
  if (entry === undefined) return undefined;
  for (const [code, found] of Object.entries(entry)) {
    if (!RULE_CODES.has(code) || !found.every((d) => d.code === code && d.file === input.file.id)) return undefined;
  }
  return entry;
}

const RULE_CODES = new Set(LINT_RULES.map((r) => r.code));

/** Bump when what a remembered finding means changes without a new compiler version. */
const LINT_MEMO_VERSION = 1;

/**
 * What a file's findings depend on: the compiler (its version; the CLI's cache also checks its
 * whole identity), its place (every field of its SourceFile but the bytes) and the sha256 of its
 * bytes; its parse is a function of those.
 */
export function lintKey({ file }: LintInput, version = compilerVersion()): string {
  const { bytes, ...place } = file;
  return sha256Hex(canonicalJson([LINT_MEMO_VERSION, version, place, sha256Hex(bytes)]));
}

export const MAX_PER_FILE = 100;

/**
 * The first MAX_PER_FILE findings of one rule in one file, in listing order
 * (exact duplicates dropped); the last one kept counts the rest. A bounded
 * selection over the rule's findings as they come: a file with a hundred
 * thousand hits keeps a hundred diagnostics alive, not all of them. Rules
 * report in reading order, so each finding is usually compared with the last
 * one kept and dropped.
 */
export function capped(found: Iterable<Diagnostic>): Diagnostic[] {
  const kept: Diagnostic[] = [];
  let total = 0;
  for (const d of found) {
    total++;
    if (kept.length === MAX_PER_FILE && compareDiagnostics(d, kept[MAX_PER_FILE - 1]!) >= 0) continue;
    // Where d goes among the kept ones (binary search), unless it is one of them already.
    let lo = 0;
    let hi = kept.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareDiagnostics(kept[mid]!, d) < 0) lo = mid + 1;
      else hi = mid;
    }
    if (lo < kept.length && compareDiagnostics(kept[lo]!, d) === 0) continue;
    kept.splice(lo, 0, d);
    if (kept.length > MAX_PER_FILE) kept.pop();
  }
  if (total > MAX_PER_FILE && kept.length === MAX_PER_FILE) {
    const last = kept[MAX_PER_FILE - 1]!;
    kept[MAX_PER_FILE - 1] = { ...last, message: `${last.message} (and ${total - MAX_PER_FILE} more like this in the file)` };
  }
  return kept;
}

function runRule(rule: LintRule, input: LintInput): Diagnostic[] {
  try {
    return capped(rule.check(input));
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return [diag('RC9001', {
      file: input.file.id,
      message: `lint rule ${rule.code} (${rule.name}) failed: ${reason}`,
    })];
  }
}
