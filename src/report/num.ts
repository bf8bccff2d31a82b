/** Numbers as reports print them. */

/** Group digits: 12345 → "12,345" (fixed, locale-independent). */
export function num(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
