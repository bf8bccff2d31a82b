/**
 * "Did you mean": the known name closest to a mistyped one (a frontmatter
 * key, a command-line option), by case-insensitive edit distance of at most 2.
 * Names whose lengths differ by more than that are not compared at all, so a
 * long hostile key costs nothing.
 */
export function nearest(name: string, known: readonly string[]): string | null {
  let best: { k: string; d: number } | null = null;
  for (const k of known) {
    const d = distance(name.toLowerCase(), k.toLowerCase());
    if (d <= 2 && (!best || d < best.d)) best = { k, d };
  }
  return best?.k ?? null;
}

function distance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length] ?? 0;
}
