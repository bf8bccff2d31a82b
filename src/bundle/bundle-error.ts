/** How the bundle reader refuses a bundle: a BundleError carrying a coded diagnostic (RC70xx). */
import type { Diagnostic } from '../diagnostics/diagnostic-shape.js';
import { bundleDiag } from '../diagnostics/catalogue-bundle.js';

/** A bundle that failed verification; `diagnostic.code` says how (RC70xx). */
export class BundleError extends Error {
  override name = 'BundleError';
  readonly code: string;
  constructor(readonly diagnostic: Diagnostic) {
    super(diagnostic.message);
    this.code = diagnostic.code;
  }
}

/** Refuse the bundle: throw a BundleError of bundle code `code` about `file`. */
export function failBundle(code: string, file: string, message: string): never {
  throw new BundleError(bundleDiag(code, { file, message }));
}
