/** RC31xx–RC33xx: conflict events, enforcement violations, overrides. */
import type { CatalogueEntry } from './catalogue.js';

export const CONFLICT_CODES: CatalogueEntry[] = [];
