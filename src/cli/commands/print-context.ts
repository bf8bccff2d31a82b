/**
 * Printing a rendered context (`explain --text`, with or without --profile):
 * the one output that may carry a detected secret, because it is exactly what
 * the agent receives. So it is printed as is — except control characters,
 * which never reach a terminal raw — and stderr says what it holds.
 */
import { catalogueEntry } from '../../diagnostics/catalogue.js';
import { secretSitesInText } from '../../validate/lint/secrets.js';
import { countControls, escapeControls } from '../../report/escape.js';
import type { Io } from '../io.js';

export function printContext(io: Io, command: string, text: string): void {
  io.out(escapeControls(text));
  const controls = countControls(text);
  if (controls > 0) {
    io.err(`rulec ${command}: ${controls} control character${controls === 1 ? '' : 's'} shown escaped (\\u001b …); the exact bytes are in the bundle's context file and in --format json\n`);
  }
  warnAboutSecrets(io, command, text);
}

/** On stderr: the detected secrets a printed context holds (what and where, never the value). */
export function warnAboutSecrets(io: Io, command: string, text: string): void {
  const notes = secretNotes(text);
  if (notes.length === 0) return;
  io.err(`rulec ${command}: warning: this context holds ${notes.length} detected secret${notes.length === 1 ? '' : 's'} (${notes.slice(0, 5).join('; ')}${notes.length > 5 ? '; …' : ''}); `
    + 'it is printed as the agent receives it: keep it out of logs, tickets and chats, and remove the secret from its file\n');
}

/** `RC6003 GitHub token at line 12`: what and where, never the value. */
export function secretNotes(text: string): string[] {
  return secretSitesInText('', text).map((s) => `${s.code} ${catalogueEntry(s.code).title} at line ${s.range.start.line}`);
}
