/** RC6xxx: the lint catalogue (secrets, hidden Unicode, dangerous commands, injection). */
import type { CatalogueEntry } from './catalogue.js';

export const LINT_CODES: CatalogueEntry[] = [];
