/** A registry operation refused or a store found damaged; `diagnostic.code` says how (RC71xx–RC75xx). */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { diag, type DiagnosticInit } from '../diagnostics/diagnostic.js';

export class RegistryError extends Error {
  override name = 'RegistryError';
  readonly code: string;
  /** Further findings that came with the refusal (e.g. repairs done before it). */
  readonly diagnostics: Diagnostic[];
  constructor(readonly diagnostic: Diagnostic, more: Diagnostic[] = []) {
    super(diagnostic.message);
    this.code = diagnostic.code;
    this.diagnostics = [diagnostic, ...more];
  }
}

export function registryError(code: string, init: DiagnosticInit): RegistryError {
  return new RegistryError(diag(code, init));
}
