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
  check(input: LintInput): Diagnostic[];
}
