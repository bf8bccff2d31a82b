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

/**
 * How many distinct elements lists sorted by code units hold together: the largest list's
 * length, plus the others' elements it lacks (binary search). Several globs of one rule often
 * include a broad one (`apps/**` beside `packages/p1/**`): putting every match in a Set cost
 * the broad glob's size for every such rule.
 */
export function unionSize(lists: readonly (readonly string[])[]): number {
  let largest: readonly string[] = [];
  for (const l of lists) if (l.length > largest.length) largest = l;
  const extra = new Set<string>();
  for (const l of lists) {
    if (l === largest) continue;
    for (const p of l) if (largest[lowerBound(largest, p)] !== p) extra.add(p);
  }
  return largest.length + extra.size;
}

/**
 * The union of lists each sorted by code units: sorted, each element once. Linear in the
 * lists' lengths (merged two at a time; callers pass a few), where a Set and a sort of their
 * concatenation cost a sort of every element.
 */
export function unionSorted(lists: readonly (readonly string[])[]): string[] {
  let out: string[] = [];
  for (const list of lists) out = mergeTwo(out, list);
  return out;
}

function mergeTwo(a: readonly string[], b: readonly string[]): string[] {
  const out: string[] = [];
  const push = (x: string): void => {
    if (out.length === 0 || out[out.length - 1] !== x) out.push(x);
  };
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const [x, y] = [a[i] as string, b[j] as string];
    if (x <= y) {
      push(x);
      i++;
      if (x === y) j++;
    } else {
      push(y);
      j++;
    }
  }
  while (i < a.length) push(a[i++] as string);
  while (j < b.length) push(b[j++] as string);
  return out;
}
