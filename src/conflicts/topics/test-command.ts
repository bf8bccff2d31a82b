/** test-command: the command that runs the tests, normalised (`pnpm -F x test` → `pnpm test`). */
import type { TopicExtractor } from './types.js';
import { commandFindings, commandWithoutPm, sameCommand } from './command.js';

export const testCommand: TopicExtractor = {
  topic: 'test-command',
  description: 'the command that runs the tests',
  exclusive: true,
  compatible: sameCommand,
  canonical: commandWithoutPm,
  extract: (clause) => commandFindings(clause, 'test'),
};
