/** What a lint rule reads and what it is: one file's parse, and a named check over it. */
import type { ParsedDoc, SourceFile } from '../../types.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';

export interface LintInput {
  file: SourceFile;
  doc: ParsedDoc;
}

export interface LintRule {
  code: string;
  name: string;
  /** The rule's findings in the file, best in reading order (a generator when there can be very many: runLint keeps the first hundred). */
  check(input: LintInput): Iterable<Diagnostic>;
}
