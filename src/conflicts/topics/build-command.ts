/** build-command: the command that builds, normalised (`pnpm -F x build` → `pnpm build`). */
import type { TopicExtractor } from './types.js';
import { commandFindings, commandWithoutPm, sameCommand } from './command.js';

export const buildCommand: TopicExtractor = {
  topic: 'build-command',
  description: 'the command that builds',
  exclusive: true,
  compatible: sameCommand,
  canonical: commandWithoutPm,
  extract: (clause) => commandFindings(clause, 'build'),
};
