/** The CLI's only contact with stdout/stderr. */
import { escapeControls } from '../report/escape.js';

export interface Io {
  out(text: string): void;
  err(text: string): void;
  cwd: string;
}

// The last guard of terminal hygiene: whatever a command prints, no control or bidi character
// reaches the terminal raw (formatters already escape the fields they print; this catches the rest).
export const processIo: Io = {
  out: (t) => process.stdout.write(escapeControls(t)),
  err: (t) => process.stderr.write(escapeControls(t)),
  cwd: process.cwd(),
};

export const EXIT = { clean: 0, errors: 1, failure: 2 } as const;
