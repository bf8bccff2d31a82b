/** parseDocs(): parseDoc() over every file read, keyed by source id. */
import type { ParsedDoc, SourceFile, StageResult } from '../types.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { pushAll } from '../util/push-all.js';
import { parseDoc } from './parse-doc.js';

export function parseDocs(files: readonly SourceFile[]): StageResult<Map<string, ParsedDoc>> {
  const docs = new Map<string, ParsedDoc>();
  const diagnostics: Diagnostic[] = [];
  for (const file of files) {
    const parsed = parseDoc(file);
    docs.set(file.id, parsed.value);
    pushAll(diagnostics, parsed.diagnostics);
  }
  return { value: docs, diagnostics };
}
