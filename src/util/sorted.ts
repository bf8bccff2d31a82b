/** Search in arrays sorted by code units (the order compareCodeUnits gives). */

/** The first index whose element is not below `key` (arr.length when none). */
export function lowerBound(arr: readonly string[], key: string): number {
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((arr[mid] as string) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
