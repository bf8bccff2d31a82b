/**
 * The data `rulec diff` produces: plain JSON-able values, published as
 * schemas/diff.schema.json (BundleDiff; its parts in path-group.ts and
 * rule-change.ts, and `rulec check`'s CheckReport in check-model.ts, as
 * schemas/check.schema.json). Reporters (text, json, markdown,
 * sarif, github, html) read only these types; nothing here holds a function,
 * a Map or an undefined field, so `JSON.stringify` round-trips every value.
 *
 * Units: a diff counts **paths** when the new side's path list is known (it
 * was compiled from a git tree or the work tree) and **directories** (the
 * manifest's index directories) when it came from a bundle directory; every
 * count says which in a `unit` field.
 *
 * Lists are sorted so that two runs give the same bytes: by severity or size
 * where a reader wants the biggest first (documented per field), ties and
 * everything else by code-unit order.
 */
import type { ConflictEvent } from '../conflicts/events.js';
import type { DiffUnit, Examples, PathGroup, SourceMover, WinnerChangeSummary } from './path-group.js';
import type { RuleChange, SourceChange, SourceChangeKind } from './rule-change.js';

export const DIFF_SCHEMA_ID = 'https://rulec.dev/schemas/diff-v1.json';

// ---------------------------------------------------------------------------
// The two sides

export type SideKind = 'bundle' | 'git' | 'worktree';

export interface DiffSide {
  /** How the side was named on the command line, resolved: `bundle:bundles/b-…`, `git:main`, `worktree:`. */
  label: string;
  kind: SideKind;
  /** The commit a git side was compiled from (full hex), or the manifest's source commit. */
  commit: string | null;
  bundle_id: string;
  /** `sha256:` of the canonical manifest bytes. */
  digest: string;
  revision: string;
  compiler: string;
  policy_digest: string;
  tokenizer: string;
  /** True when the side's path list was known (compiled), false for a bundle directory. */
  paths_known: boolean;
  /** Diagnostic counts recorded in the manifest. */
  diagnostics: { errors: number; warnings: number; infos: number };
}

// ---------------------------------------------------------------------------
// The verdict a reviewer reads first

export type Bump = 'major' | 'minor' | 'patch' | 'none';

export interface SemverReason {
  bump: Exclude<Bump, 'none'>;
  /** One line: "rule removed: AGENTS.md#testing", "wording only: CLAUDE.md#style". */
  why: string;
  source: string | null;
  rule: string | null;
}

/**
 * The proposed semver bump of the bundle's revision: major when a rule is
 * removed or tightened, a prescribed value changes, a scope narrows or an
 * enforced (or managed) rule changes; minor when rules or sources are added or
 * a scope widens; patch for wording only (or changes outside the rules:
 * policy, compiler); none when the bundles are identical.
 */
export interface SemverProposal {
  bump: Bump;
  /** Every reason, biggest bump first, then by source and rule. */
  reasons: SemverReason[];
}

export interface DiffSummary {
  unit: DiffUnit;
  sources: { added: number; removed: number; changed: number };
  rules: { added: number; removed: number; changed: number; moved: number };
  /** Path groups (pairs of old → new variant) whose standing context changed. */
  groups: number;
  /** Paths (or directories) whose standing context changed. */
  affected: number;
  /** Paths (or directories) of the new side in all. */
  total: number;
  conflicts: { introduced: number; resolved: number; introduced_errors: number };
  /** Topic winners that changed somewhere (distinct old → new pairs). */
  winners_changed: number;
  /** (profile, file) pairs an agent's budget now cuts or drops somewhere. */
  newly_dropped: number;
}

// ---------------------------------------------------------------------------
// Bundle-wide figures

export interface AttachmentChange {
  /** The glob-scoped source that heads the attachment. */
  source: string;
  change: SourceChangeKind;
  old: { id: string; globs: string[]; tokens: number; bytes: number } | null;
  new: { id: string; globs: string[]; tokens: number; bytes: number } | null;
}

export interface ProfileTotals {
  profile: string;
  /** Sum over affected units of the tokens this agent injects there. */
  old_tokens: number;
  new_tokens: number;
  /** Affected units where it fits its budget (nothing cut or dropped), per side. */
  old_fits: number;
  new_fits: number;
}

export interface TokenImpact {
  unit: DiffUnit;
  /** Sum over affected units of their standing-context tokens, per side. */
  old_total: number;
  new_total: number;
  old_bytes: number;
  new_bytes: number;
  /** The largest variant of each side. */
  largest: { old: { variant: string; tokens: number } | null; new: { variant: string; tokens: number } | null };
  profiles: ProfileTotals[];
  /** At most 10 sources by |delta × units|, largest first. */
  top_movers: SourceMover[];
}

export type BudgetChangeKind = 'now-dropped' | 'no-longer-dropped';

/** A file an agent's budget now cuts or drops (or no longer does), aggregated over groups. */
export interface BudgetChange {
  profile: string;
  file: string;
  change: BudgetChangeKind;
  groups: number;
  units: Examples;
}

export interface CacheImpact {
  unit: DiffUnit;
  /** Units whose standing text is byte-identical. */
  unchanged: number;
  /** Changed units whose whole old text is still a prefix of the new text. */
  prefix_kept: number;
  /** Changed units where a change inside the old text invalidates the cached prefix from that point on. */
  prefix_lost: number;
  /** Over changed units: leading tokens still served from a prompt cache, and old tokens invalidated. */
  tokens_kept: number;
  tokens_invalidated: number;
}

export interface AffectedDirectory {
  /** The index directory that serves the affected units ('.' for the root). */
  dir: string;
  count: number;
  /** Up to 3 example paths (empty when the unit is directories). */
  examples: string[];
}

export interface AffectedPaths {
  unit: DiffUnit;
  count: number;
  total: number;
  /** Most affected first (then by directory); at most 100. */
  directories: AffectedDirectory[];
  /** Directories left out of `directories`. */
  omitted: number;
}

export interface ConflictChanges {
  /** Events (by id) on the new side only, then resolved ones on the old side only; each sorted by id. */
  introduced: ConflictEvent[];
  resolved: ConflictEvent[];
}

export interface BundleDiff {
  schema: typeof DIFF_SCHEMA_ID;
  old: DiffSide;
  new: DiffSide;
  /** The two bundles have the same bundle id: nothing an agent loads changed. */
  identical: boolean;
  semver: SemverProposal;
  summary: DiffSummary;
  /** By id. */
  sources: SourceChange[];
  /** By (new or old) source, then line. */
  rules: RuleChange[];
  /** Changed groups, most affected units first, then by new variant id. */
  groups: PathGroup[];
  /** Most affected units first. */
  winners: WinnerChangeSummary[];
  conflicts: ConflictChanges;
  tokens: TokenImpact;
  /** By profile, then file. */
  budgets: BudgetChange[];
  cache: CacheImpact;
  affected: AffectedPaths;
  /** By source. */
  attachments: AttachmentChange[];
  /** What this diff could not compute and why (e.g. a bundle written before source blobs). */
  notes: string[];
}
