/**
 * Cost tests compare the time of input n with input 2n, never an absolute
 * time: a stage that is near-linear takes about twice as long, a quadratic one
 * four times. On a loaded 2-core machine one run is noise, so:
 *
 * 1. inputs are built before the clock starts;
 * 2. both sizes run once to warm up (JIT, caches, lazy tables);
 * 3. n is sized so the small input takes a little over `floorMs` (its best
 *    of two runs, timed alone before the large input is timed at all): it
 *    grows until then, so timer resolution and scheduling jitter don't decide
 *    the ratio, and shrinks (not below `minN`) when it is far over, since every
 *    timed run repeats it — each in one step, by the power of two the time
 *    measured asks for;
 * 4. each size runs `reps` times, interleaved, and the minimum counts — the
 *    run least disturbed by other processes;
 * 5. a ratio over the limit is measured again (up to `attempts` times) and the
 *    best kept: a superlinear stage fails every time, a burst of load does not.
 */
import { performance } from 'node:perf_hooks';

export interface Doubling {
  n: number;
  small: number;
  large: number;
  ratio: number;
}

export interface DoublingOptions {
  /** Starting size. */
  n: number;
  /** Largest size the small input may grow to. */
  maxN?: number;
  /** Smallest size the small input may shrink to (default n / 8). */
  minN?: number;
  reps?: number;
  floorMs?: number;
  attempts?: number;
}

/** The ratio a near-linear stage must stay under. */
export const MAX_RATIO = 3;

export async function doubling<T>(make: (n: number) => T | Promise<T>, run: (input: T) => unknown,
  { n, maxN = n * 16, minN = Math.ceil(n / 8), reps = 3, floorMs = 30, attempts = 3 }: DoublingOptions): Promise<Doubling> {
  let size = n;
  let small = await make(size);
  let large = await make(2 * size);
  await run(small);
  await run(large);
  // Far over the floor: shrink toward twice the floor, in one step.
  const first = await fastest(run, small, 2);
  let shrink = 1;
  while (first / (shrink * 2) >= floorMs * 2 && Math.round(size / (shrink * 2)) >= minN) shrink *= 2;
  if (shrink > 1 && first > floorMs * 4) {
    size = Math.round(size / shrink);
    small = await make(size);
    large = await make(2 * size);
    await run(small);
    await run(large);
  }
  // Size first, timing the small input alone: growing used to run the large input `reps` times
  // at every size it then threw away.
  for (let a = await fastest(run, small, 2); a < floorMs && size * 2 <= maxN; a = await fastest(run, small, 2)) {
    // Too fast to time reliably: grow the input in one step, by the power of two that should lift
    // the small run over the floor (stepping 2× at a time made and ran every size between).
    let factor = 2;
    while (a * factor < floorMs * 1.5 && size * factor * 2 <= maxN) factor *= 2;
    size *= factor;
    small = factor === 2 ? large : await make(size);
    large = await make(2 * size);
    if (factor > 2) await run(small);
    await run(large);
  }
  let best: Doubling | null = null;
  for (let attempt = 0; attempt < attempts && (best === null || best.ratio >= MAX_RATIO); attempt++) {
    let a = Infinity;
    let b = Infinity;
    for (let i = 0; i < reps; i++) {
      a = Math.min(a, await timeOf(run, small));
      b = Math.min(b, await timeOf(run, large));
    }
    const d = { n: size, small: round(a), large: round(b), ratio: round(b / Math.max(a, 0.01)) };
    if (best === null || d.ratio < best.ratio) best = d;
  }
  return best as Doubling;
}

async function fastest<T>(run: (input: T) => unknown, input: T, times: number): Promise<number> {
  let min = Infinity;
  for (let i = 0; i < times; i++) min = Math.min(min, await timeOf(run, input));
  return min;
}

async function timeOf<T>(run: (input: T) => unknown, input: T): Promise<number> {
  const t0 = performance.now();
  await run(input);
  return performance.now() - t0;
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}

/** `label: n=…, small ms, large ms, ratio` — printed so a failure shows its numbers. */
export function describeDoubling(label: string, d: Doubling): string {
  return `${label}: n=${d.n} ${d.small} ms, 2n ${d.large} ms, ratio ${d.ratio}`;
}
