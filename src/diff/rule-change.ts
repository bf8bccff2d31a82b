/**
 * Sources and rules added, removed, changed or moved between two bundles,
 * with what each rule change does (its effect). Part of BundleDiff
 * (bundle-diff.ts); plain JSON-able values.
 */
import type { ManifestFile } from '../bundle/model.js';
import type { Layer } from '../types.js';

export type SourceChangeKind = 'added' | 'removed' | 'changed';

/** A source file added, removed or changed: its manifest entry on each side (null: absent). */
export interface SourceChange {
  id: string;
  change: SourceChangeKind;
  old: ManifestFile | null;
  new: ManifestFile | null;
  /** A managed file with `enforce: true`, per side (null: absent, or its bytes are not available). */
  enforced: { old: boolean | null; new: boolean | null };
  /**
   * For `changed`: what differs — manifest fields ('sha256', 'layer', 'scope',
   * 'activation', 'globs', 'format', 'link', 'tracked') and 'enforced'.
   */
  fields: string[];
}

/** Where a rule lives. Lines are 1-based lines of the source file (frontmatter included). */
export interface RuleSite {
  source: string;
  rule: string;
  line: number;
  end_line: number;
  /** Heading path as written, [] for the text before the first heading. */
  heading: string[];
  layer: Layer;
  enforced: boolean;
  /** Human scope: '.', a directory, `globs: …`, 'managed'. */
  scope: string;
  activation: string;
}

export type RuleChangeKind = 'added' | 'removed' | 'changed' | 'moved';

/**
 * What a change does to a rule (a rule can carry several):
 * - wording: text changed, same prescriptions, no stronger or weaker obligation;
 * - added-guidance: statements added without a new obligation;
 * - tightened: a new prohibition or obligation ("never", "must", "do not …");
 * - loosened: statements or obligations removed;
 * - prescription-changed: a topic's value changed (test command, package manager …);
 * - scope-narrowed / scope-widened: the file's globs, activation or layer reach fewer / more paths;
 * - scope-to-repository: the rule now loads for the whole repository where it did not;
 * - enforcement-changed: a managed rule gained or lost `enforce: true`;
 * - layer-changed: the file's layer changed (e.g. repo → local).
 */
export type RuleEffect = 'wording' | 'added-guidance' | 'tightened' | 'loosened' | 'prescription-changed' | 'scope-narrowed'
  | 'scope-widened' | 'scope-to-repository' | 'enforcement-changed' | 'layer-changed';

/** One topic finding of a rule: `test-command: pnpm vitest run`, `package-manager: not npm`. */
export interface RuleFinding {
  topic: string;
  value: string;
  line: number;
}

export interface RuleChange {
  kind: RuleChangeKind;
  /** The rule id on the new side (the old side for `removed`). */
  rule: string;
  old: RuleSite | null;
  new: RuleSite | null;
  /** Empty for `added` and `removed`; for `moved`, what changed besides the move. */
  effects: RuleEffect[];
  /** Lines (trimmed, non-blank, code blocks included) present on one side only, in file order; all of a rule's lines when it is added or removed. */
  removed_lines: string[];
  added_lines: string[];
  /** The file line of each of `removed_lines` (in the old file) and of `added_lines` (in the new one). */
  removed_at: number[];
  added_at: number[];
  /** Topic findings present on one side only (free-text directives are not shown). */
  removed_findings: RuleFinding[];
  added_findings: RuleFinding[];
}
