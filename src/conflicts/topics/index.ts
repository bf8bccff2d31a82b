/**
 * The topic registry: every extractor, in the order they run on a clause.
 * Adding a topic is adding a file and a line here. Fallbacks run last and only
 * on clauses no specific extractor recognised.
 */
import type { TopicExtractor } from './types.js';
import { packageManager } from './package-manager.js';
import { testCommand } from './test-command.js';
import { buildCommand } from './build-command.js';
import { lintCommand } from './lint-command.js';
import { formatCommand } from './format-command.js';
import { scriptArguments } from './script-arguments.js';
import { indentation } from './indentation.js';
import { quoteStyle } from './quote-style.js';
import { semicolons } from './semicolons.js';
import { runtimeVersion } from './runtime-version.js';
import { commitConvention } from './commit-convention.js';
import { branchPolicy } from './branch-policy.js';
import { branchName } from './branch-name.js';
import { protectedPaths } from './protected-paths.js';
import { preference } from './preference.js';
import { choice } from './choice.js';
import { changelog } from './changelog.js';
import { newDependencies } from './new-dependencies.js';
import { directive } from './directive.js';

export type { Finding, TopicExtractor } from './types.js';

export const TOPICS: readonly TopicExtractor[] = [
  packageManager, testCommand, buildCommand, lintCommand, formatCommand, scriptArguments, indentation, quoteStyle, semicolons,
  runtimeVersion, commitConvention, branchPolicy, branchName, protectedPaths, preference, choice, changelog, newDependencies, directive,
];

/** What the extractors read of a heading path (TopicExtractor.headingKey), as one string. */
export function headingKeyOf(headings: readonly string[]): string {
  let key = '';
  for (const t of TOPICS) if (t.headingKey) key += `${t.headingKey(headings)}\u0001`;
  return key;
}

export function topicByName(name: string): TopicExtractor | undefined {
  return TOPICS.find((t) => t.topic === name);
}
