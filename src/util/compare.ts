/**
 * Code-unit string comparison. Never localeCompare: collation differs between
 * ICU builds and locales, and sorted output must be identical on every machine.
 */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

