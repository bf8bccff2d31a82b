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
}

export interface TopicExtractor {
  /** Topic name as it appears in events ('package-manager'). */
  topic: string;
  description: string;
  /** A fallback runs only on clauses no other extractor matched. */
  fallback?: boolean;
  /** Two different positive values on this topic contradict each other. */
  exclusive: boolean;
  extract(clause: Clause): Finding[];
  /** Same subject for polarity conflicts, compatible for exclusive values; default: equality. */
  compatible?(a: string, b: string): boolean;
  /**
   * A key such that compatible values always share it (directive: the verb).
   * Lets a non-exclusive topic compare each finding only with its bucket instead
   * of every finding of the other file. Default: the value itself when
   * `compatible` is equality; none (compare all) otherwise.
   */
  bucket?(value: string): string;
}
