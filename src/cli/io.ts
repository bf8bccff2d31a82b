/** The CLI's only contact with stdout/stderr. */
import { escapeControls } from '../report/escape.js';

export interface Io {
  out(text: string): void;
  err(text: string): void;
  cwd: string;
  /**
   * Rewrites one status line in place on stderr ('' erases it). Present only
   * when stderr is a terminal: the progress of a long build (cli/progress.ts).
   */
  status?(line: string): void;
}

// The last guard of terminal hygiene: whatever a command prints, no control or bidi character
// reaches the terminal raw (formatters already escape the fields they print; this catches the rest).
export const processIo: Io = {
  out: (t) => process.stdout.write(escapeControls(t)),
  err: (t) => process.stderr.write(escapeControls(t)),
  cwd: process.cwd(),
  // Carriage return and erase-line are ours; the line's text is escaped like any other.
  ...(process.stderr.isTTY ? { status: (line: string) => void process.stderr.write(`\r\u001b[2K${escapeControls(line)}`) } : {}),
};

export const EXIT = { clean: 0, errors: 1, failure: 2 } as const;
