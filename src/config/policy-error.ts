/** An invalid policy file: a configuration failure (exit 2) that carries its coded diagnostics. */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { UsageError } from '../util/errors.js';

export class PolicyError extends UsageError {
  constructor(readonly diagnostics: Diagnostic[]) {
    super(`invalid policy: ${diagnostics.length} problem${diagnostics.length === 1 ? '' : 's'}`);
  }
}
