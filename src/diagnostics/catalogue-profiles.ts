/** RC55xx: agent profile findings (truncation, starvation, divergence from the canonical model). */
import type { CatalogueEntry } from './catalogue.js';

export const PROFILE_CODES: CatalogueEntry[] = [];
