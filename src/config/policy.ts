/** The effective policy: policies/default.yaml merged with a repository's own. */
import type { Severity } from '../diagnostics/diagnostic.js';
import { canonicalJson } from '../util/canonical-json.js';
import { digestOf } from '../util/hash.js';
import type { ConflictKind } from '../diagnostics/conflict-codes.js';
import type { FormatFamily } from '../formats/formats.js';

/** Per-layer token budgets within a variant; a layer without a number has no limit. */
export type LayerTokens = Partial<Record<'managed' | 'repo' | 'path' | 'local', number>>;

/** Which `formats:` switch a format belongs to: a format's fact, kept with its row. */
export type { FormatFamily } from '../formats/formats.js';

export interface Policy {
  version: 1;
  tokenizer: 'o200k_base' | 'cl100k_base' | 'p50k_base' | 'r50k_base';
  formats: Record<FormatFamily, boolean>;
  discover: { exclude: string[]; walk_ignore: string[]; max_file_bytes: number };
  imports: { max_depth: number; max_files: number };
  managed: { dir: string | null };
  budgets: { variant_tokens: number; attachment_tokens: number; file_bytes: number; layer_tokens: LayerTokens };
  severity: Record<string, Severity | 'off'>;
  /** Conflict events (src/conflicts): severities per kind, the layer order, accepted conflicts. */
  conflicts?: ConflictPolicy;
  /** Agent profiles (src/profiles): the agents a repository targets and their own options. */
  profiles?: ProfilesPolicy;
  /** Risk classes for `rulec check` (src/diff/risk.ts): who must approve which kind of change. */
  risk?: RiskPolicy;
}

export type RiskLevelName = 'high' | 'medium' | 'low';

/** One risk class: how many approvals a change of it needs, and CODEOWNERS-style owner lines (`pattern owner…`). */
export interface RiskClassPolicy {
  approvals?: number;
  owners?: string[];
}

export interface RiskPolicy {
  classes?: Partial<Record<RiskLevelName, RiskClassPolicy>>;
  /** Per check of the risk table: its class, or off. */
  checks?: Record<string, RiskLevelName | 'off'>;
}

/**
 * The manifest's policy digest: sha256 of the canonical effective policy,
 * without `risk` — who must approve a review changes no bundle.
 */
export function policyDigest(policy: Policy): string {
  const { risk: _review, ...build } = policy;
  return digestOf(canonicalJson(build));
}

export type ProfileName = 'codex' | 'claude-code' | 'gemini-cli' | 'copilot-cli' | 'cursor' | 'qwen-code';

/** `enabled` plus one options mapping per profile, passed as-is to AgentProfile.load and evaluateProfiles. */
export interface ProfilesPolicy {
  enabled?: ProfileName[];
  codex?: { project_doc_max_bytes?: number; fallback_filenames?: string[]; project_root_markers?: string[] };
  'claude-code'?: { approve_external_imports?: boolean; import_max_depth?: number };
  'gemini-cli'?: { context_file_names?: string | string[]; import_max_depth?: number };
  'copilot-cli'?: Record<string, never>;
  cursor?: Record<string, never>;
  'qwen-code'?: Record<string, never>;
}

export interface ConflictPolicy {
  severity?: Partial<Record<ConflictKind, Severity>>;
  layer_order?: ('managed' | 'repo' | 'path' | 'local' | 'user')[];
  overrides?: { event?: string; topic?: string; scope?: string; owner: string; reason: string; expires: string }[];
  /** Hard caps on hostile input (src/conflicts): distinct findings per source and topic (RC3106), events per build (RC3107). */
  limits?: { findings_per_topic?: number; events?: number };
}

/**
 * Deep-merge `over` onto `base`: mappings merge, everything else replaces. Keys come from the
 * policy file, so each is an own property, read and written as data: `__proto__` is a key like
 * any other (and an unknown one, which the schema refuses), never the object's prototype.
 */
export function mergePolicy(base: unknown, over: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(over)) return over === undefined ? base : over;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const value = mergePolicy(Object.hasOwn(base, k) ? base[k] : undefined, v);
    Object.defineProperty(out, k, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
