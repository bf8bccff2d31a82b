/** The shape of one catalogue row: a code's default severity, title, hint and explanation. */
export type Severity = 'error' | 'warning' | 'info';

export interface CatalogueEntry {
  code: string;
  severity: Severity;
  title: string;
  hint?: string;
  explanation: string;
}
