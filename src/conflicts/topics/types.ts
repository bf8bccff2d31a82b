/**
 * The shape of a topic extractor: a small named entry that reads one clause
 * and reports what it prescribes. Detection compares findings of the same
 * topic across sources; the extractor says when two findings are about the
 * same thing (`key`, `compatible`) and whether two different positive values
 * exclude each other.
 */
import type { Clause } from '../statements.js';

export interface Finding {
  /** Normalised value: 'pnpm', 'pnpm test', 'node@20', a path, a directive subject. */
  value: string;
  /** True when the clause forbids the value ("do not use npm"). */
  negated: boolean;
  /** Qualifier that must match for two findings to be compared ('' = none): 'workspaces', 'python'. */
  key: string;
  /** Offset of the match within the clause. */
  at: number;
  /**
   * A keyed copy of an unkeyed finding of the same clause (package-manager: the tool that runs
   * one step), for comparison only: compared when the two sources' unkeyed findings agree, so one
   * disagreement is one event, and not listed as a prescription of its own.
   */
  refines?: true;
  /**
   * A negated finding that waives rather than forbids ("there is no need to add change logs"):
   * it disagrees with a prescription, but a narrower file that prescribes what a broader one
   * waives adds an obligation, it lifts no guard.
   */
  waiver?: true;
  /**
   * A positive finding the clause takes for granted rather than prescribes ("when adding a new
   * dependency, add it to the package that needs it" presumes the agent adds dependencies). It
   * is reported only when a narrower or higher-ranked source restricts it (an override), never
   * as a contradiction: the presumption and a restriction can both be followed.
   */
  presumed?: true;
}

/** Where a clause stands: its statement (as written) and the heading path of its rule. */
export interface ClauseContext {
  statement: string;
  headings: readonly string[];
}

export interface TopicExtractor {
  /** Topic name as it appears in events ('package-manager'). */
  topic: string;
  description: string;
  /** A fallback runs only on clauses no other extractor matched. */
  fallback?: boolean;
  /** Two different positive values on this topic contradict each other. */
  exclusive: boolean;
  /**
   * `where`: the clause's whole statement and the headings above it, for a topic that needs its
   * subject named nearby. An extractor that reads `where.headings` declares `headingKey`.
   */
  extract(clause: Clause, where?: ClauseContext): Finding[];
  /**
   * What `extract` reads of the heading path, as a string: its findings may depend on the headings
   * only through this key. A statement is analysed once per build for each distinct text and key
   * (facts.ts), so a paragraph pasted under many headings is not analysed again for each.
   */
  headingKey?(headings: readonly string[]): string;
  /** Same subject for polarity conflicts, compatible for exclusive values; default: equality. */
  compatible?(a: string, b: string): boolean;
  /**
   * When `compatible` is an equivalence: a canonical form such that two values
   * are compatible exactly when their forms are equal (commands: the command
   * without its package manager). Lets detection use hash lookups. Default:
   * the value itself when `compatible` is equality.
   */
  canonical?(value: string): string;
  /**
   * When `compatible` is not an equivalence: keys such that two compatible
   * values always share at least one (directive: the verb with each object
   * word). A finding is compared only with the findings that share a key.
   * Default: compare with every finding of the same key.
   */
  buckets?(value: string): string[];
}
