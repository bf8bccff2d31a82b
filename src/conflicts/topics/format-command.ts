/** format-command: the command that formats code, normalised (`pnpm -F x format` → `pnpm format`). */
import type { TopicExtractor } from './types.js';
import { commandFindings, commandWithoutPm, sameCommand } from './command.js';

export const formatCommand: TopicExtractor = {
  topic: 'format-command',
  description: 'the command that formats code',
  exclusive: true,
  compatible: sameCommand,
  canonical: commandWithoutPm,
  extract: (clause) => commandFindings(clause, 'format'),
};
