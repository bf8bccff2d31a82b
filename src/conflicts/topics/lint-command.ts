/** lint-command: the command that lints, normalised (`pnpm -F x lint` → `pnpm lint`). */
import type { TopicExtractor } from './types.js';
import { commandFindings, commandWithoutPm, sameCommand } from './command.js';

export const lintCommand: TopicExtractor = {
  topic: 'lint-command',
  description: 'the command that lints',
  exclusive: true,
  compatible: sameCommand,
  canonical: commandWithoutPm,
  extract: (clause) => commandFindings(clause, 'lint'),
};
