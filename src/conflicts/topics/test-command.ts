/** test-command: the command that runs the tests, normalised (`pnpm -F x test` → `pnpm test`). */
import type { TopicExtractor } from './types.js';
import { commandFindings, sameCommand } from './command.js';

export const testCommand: TopicExtractor = {
  topic: 'test-command',
  description: 'the command that runs the tests',
  exclusive: true,
  compatible: sameCommand,
  extract: (clause) => commandFindings(clause, 'test'),
};
