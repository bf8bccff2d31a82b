/**
 * The data `rulec diff` and `rulec check` produce: plain JSON-able values,
 * published as schemas/diff.schema.json (BundleDiff) and
 * schemas/check.schema.json (CheckReport). Reporters (text, json, markdown,
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
import type { ManifestFile, ManifestProfileFit } from '../bundle/model.js';
import type { ConflictEvent } from '../conflicts/events.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { Layer } from '../types.js';

export const DIFF_SCHEMA_ID = 'https://rulec.dev/schemas/diff-v1.json';
export const CHECK_SCHEMA_ID = 'https://rulec.dev/schemas/check-v1.json';

/** What a count counts: tracked paths of the new side, or index directories when its path list is unknown. */
export type DiffUnit = 'paths' | 'directories';

/** A count with a few examples (at most 3 unless a field says otherwise), smallest first. */
export interface Examples {
  count: number;
  examples: string[];
}

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
// Sources and rules

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
  /** Topic findings present on one side only (free-text directives are not shown). */
  removed_findings: RuleFinding[];
  added_findings: RuleFinding[];
}

// ---------------------------------------------------------------------------
// Per path group: a pair (old variant → new variant) and the directories that moved between them

export interface SourceRefFacts {
  id: string;
  layer: Layer;
  /** Why it applies there: scope directory, 'managed policy', 'imported by …'. */
  reason: string;
}

/** Which rule decides a topic for the paths of a variant. */
export interface TopicWinner {
  value: string;
  source: string;
  rule: string;
  line: number;
  /** False for a contradiction: no cascade rule decides, the agent may follow either side. */
  decided: boolean;
}

export interface WinnerChange {
  /** Topic and key, as in conflict events: `test-command`, `runtime-version/node`. */
  topic: string;
  old: TopicWinner | null;
  new: TopicWinner | null;
}

export interface ProfileChange {
  profile: string;
  old: ManifestProfileFit | null;
  new: ManifestProfileFit | null;
  /** Files this agent's budget cuts or drops on the new side and did not on the old. */
  newly_dropped: string[];
  no_longer_dropped: string[];
}

/** A source's share of a token change: its block's tokens on each side (null: absent). */
export interface SourceMover {
  source: string;
  old_tokens: number | null;
  new_tokens: number | null;
  delta: number;
  /** Paths (or directories) whose standing context holds it on either side; 0 when it only attaches. */
  units: number;
}

/**
 * The prompt-cache figure of one variant change: how many leading tokens of
 * the old frozen text are still the leading tokens of the new one. Counted
 * with the new side's tokenizer: whole identical leading blocks, plus the
 * common prefix inside the first differing block up to a line break where the
 * tokenisation provably agrees.
 */
export interface VariantCache {
  old_tokens: number;
  new_tokens: number;
  kept_tokens: number;
  /** True when the whole old text is still a prefix of the new one (text was only appended). */
  whole_prefix: boolean;
  /** The source whose block is the first to differ (null when the whole prefix is kept). */
  first_change: string | null;
}

export interface PathGroup {
  old_variant: string;
  new_variant: string;
  /** Index directories (of either manifest) that fall in this group; '.' is the root. */
  dirs: Examples;
  /** Paths of the new side in this group, when the path list is known. */
  paths: Examples | null;
  sources: { added: SourceRefFacts[]; removed: SourceRefFacts[]; changed: string[] };
  winners: WinnerChange[];
  tokens: { old: number; new: number };
  bytes: { old: number; new: number };
  /** One entry per profile enabled on either side, by profile name. */
  profiles: ProfileChange[];
  /** At most 5 sources by |delta|, largest first. */
  movers: SourceMover[];
  cache: VariantCache;
}

/** A winner change aggregated over the groups where it happens. */
export interface WinnerChangeSummary extends WinnerChange {
  groups: number;
  units: Examples;
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

// ---------------------------------------------------------------------------
// Risk and `rulec check`

export type RiskLevel = 'high' | 'medium' | 'low';

/** One change matched by a row of the risk table (src/diff/risk.ts). */
export interface RiskFinding {
  level: RiskLevel;
  /** The table row: 'external-download', 'deploy-command', 'test-command', 'wording' … */
  check: string;
  why: string;
  /** Source file on the new side (old side for removals); '' for the policy. */
  source: string;
  rule: string | null;
  line: number | null;
  /** The matching line or value. */
  excerpt: string | null;
  /** Owners (teams and users) that may approve it, from the base policy's risk owners. */
  owners: string[];
}

/** One approval requirement: a risk level, the owners that must approve and what the approvals say. */
export interface ApprovalRequirement {
  level: RiskLevel;
  /** Source files of the findings this requirement covers. */
  sources: string[];
  /** Any one of these (a user `alice`, a team `@org/team`); empty: any approver. */
  owners: string[];
  needed: number;
  approved_by: string[];
  satisfied: boolean;
}

export interface RiskAssessment {
  /** The highest level found; 'none' when nothing changed. */
  level: RiskLevel | 'none';
  /** Highest level first, then by source, line and check. */
  findings: RiskFinding[];
  requirements: ApprovalRequirement[];
  /** Every requirement satisfied. */
  approved: boolean;
}

/** The approvals rulec read (approvals contract, README "Reviewing changes"). */
export interface ApprovalsInput {
  /** Where they came from: the file path, `env:RULEC_APPROVALS`, or null when none were given. */
  from: string | null;
  /** The head commit the approvals were given for, as the file says. */
  head: string | null;
  approvers: string[];
  teams: Record<string, string[]>;
}

export interface CheckRef {
  /** As given (`--base origin/main`) or chosen (`merge-base of HEAD and origin/main`). */
  ref: string;
  commit: string;
  /** How it was chosen when not given: 'merge base with origin/HEAD (origin/main)' … */
  how: string;
}

export type CheckVerdict = 'pass' | 'fail';

export interface CheckReport {
  schema: typeof CHECK_SCHEMA_ID;
  base: CheckRef;
  head: CheckRef;
  /** Changed paths between base and head that can change the bundle (sorted). */
  changed: string[];
  /** True when no rule file changed: nothing was compiled. */
  skipped: boolean;
  diff: BundleDiff | null;
  risk: RiskAssessment | null;
  approvals: ApprovalsInput;
  /** Head's diagnostics plus the check's own (RC8xxx), sorted. */
  diagnostics: Diagnostic[];
  verdict: CheckVerdict;
  /** Why it fails (empty on pass): one line each. */
  reasons: string[];
}
