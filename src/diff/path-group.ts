/**
 * A diff per path group: a pair (old variant → new variant) and the
 * directories that moved between them, with which rule decides each topic
 * there, the tokens, profiles and prompt cache on both sides. Part of
 * BundleDiff (bundle-diff.ts); plain JSON-able values.
 */
import type { ManifestProfileFit } from '../bundle/model.js';
import type { Layer } from '../types.js';

/** What a count counts: tracked paths of the new side, or index directories when its path list is unknown. */
export type DiffUnit = 'paths' | 'directories';

/** A count with a few examples (at most 3 unless a field says otherwise), smallest first. */
export interface Examples {
  count: number;
  examples: string[];
}

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
