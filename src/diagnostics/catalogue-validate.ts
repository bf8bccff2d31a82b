/** RC4xxx/RC5xxx additions: frontmatter schemas, layer budgets (owned by the validation work). */
import type { CatalogueEntry } from './catalogue.js';

export const VALIDATE_CODES: CatalogueEntry[] = [];
