/**
 * Cost tests compare the time of input n with input 2n, never an absolute
 * time: a stage that is near-linear takes about twice as long, a quadratic one
 * four times. On a loaded 2-core machine one run is noise, so:
 *
 * 1. inputs are built before the clock starts;
 * 2. both sizes run once to warm up (JIT, caches, lazy tables);
 * 3. n is sized so the small input takes one to three times `floorMs` (its
 *    best of two runs, timed alone before the large input is timed at all): it
 *    grows when under, so timer resolution and scheduling jitter don't decide
 *    the ratio, and shrinks (not below `minN`) when far over, since every timed
 *    run repeats it — each step by the power of two the time measured asks
 *    for, up to four steps;
 * 4. each size runs `reps` times, interleaved, and the minimum counts — the
 *    run least disturbed by other processes — stopping as soon as two samples
 *    of the small input agree and the ratio is clearly under the limit
 *    (CLEAR_RATIO): the sizing's last two runs are the first sample, so a
 *    clearly linear stage times its large input once; a stage still
 *    under the floor at `maxN`, or well under it once warm (the sizing timed
 *    it before the optimising compiler), is run several times per sample instead;
 * 5. a ratio over the limit is measured again (up to `attempts` times), one
 *    size up while under `maxN`, and the best kept: a superlinear stage fails
 *    at every size, a burst of load or a GC threshold between n and 2n does not.
 *
 * `run` is called many times with the same input, so it must do the stage's
 * whole work each time: where the stage keeps results per input object (lint's
 * rules do, per parsed document), `make` returns what comes before that object
 * and `run` builds it afresh — otherwise every run after the first times a lookup.
 */
import { performance } from 'node:perf_hooks';

export interface Doubling {
  n: number;
  /** Runs per timed sample (more than one only for a stage under the floor once warm). */
  loops: number;
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
  /**
   * Measurements at most (default 4). Each after the first runs only when every one before it
   * came out over the limit, so a passing run never pays for them; a quadratic stage is over at
   * every size. Fresh-clone runs with both cores loaded logged best ratios of 2.88–2.97 for
   * linear stages at their size cap, where a new attempt cannot grow the input.
   */
  attempts?: number;
}

/** The ratio a near-linear stage must stay under. */
export const MAX_RATIO = 3;
/**
 * A ratio this far under the limit ends the measurement — once two samples of
 * the small input agree (within 15%; the two fastest). Load can only inflate a
 * sample, and an inflated small sample lowers the ratio; a third rep could find
 * a cleaner one and a higher ratio. Two agreeing samples say neither was
 * inflated much, and a superlinear stage (about 4 per doubling) is not under
 * 2.5 with an honest small time.
 */
const CLEAR_RATIO = 2.5;

function clearlyUnder(smalls: readonly number[], large: number): boolean {
  const sorted = [...smalls].sort((x, y) => x - y);
  const [lo, next] = [sorted[0] ?? Infinity, sorted[1] ?? Infinity];
  return next <= lo * 1.15 && large / Math.max(lo, 0.01) < CLEAR_RATIO;
}

export async function doubling<T>(make: (n: number) => T | Promise<T>, run: (input: T) => unknown,
  { n, maxN = n * 16, minN = Math.ceil(n / 8), reps = 3, floorMs = 20, attempts = 4 }: DoublingOptions): Promise<Doubling> {
  let size = n;
  let small = await make(size);
  await run(small);
  // Size first, timing the small input alone (each size run once first, to warm it): the small
  // run should land between the floor and three times it. Time per unit grows with size (caches,
  // GC), so a step sized from one measurement may overshoot; the loop then steps back. The large
  // input is made only once the size is settled.
  let grew = false;
  let shrank = false;
  let lastSmall = Infinity;
  for (let step = 0; step < 5; step++) {
    const a = await fastest(run, small, 2);
    lastSmall = a;
    if (step === 4) break;
    let factor = 1;
    // Under the floor after a shrink: time per unit jumps between these two sizes, and growing
    // again would only go back. Several runs per sample lift it over the floor instead (below).
    if (a < floorMs && shrank) break;
    if (a < floorMs) {
      while (factor === 1 || (a * factor < floorMs * 1.5 && size * factor * 2 <= maxN)) factor *= 2;
      if (size * factor > maxN) break;
      grew = true;
    } else if (a > floorMs * 3) {
      // Down to about twice the floor, but never below minN, and only halving once after a growth.
      while (a / (factor * 2) >= floorMs * 2 && Math.round(size / (factor * 2)) >= minN && !(grew && factor === 2)) factor *= 2;
      if (factor === 1) break;
      factor = 1 / factor;
      shrank = true;
    } else break;
    size = Math.round(size * factor);
    small = await make(size);
    await run(small);
  }
  let large = await make(2 * size);
  await run(large);
  // Still under the floor at maxN (a fast stage): each sample runs the input several times, so
  // it is not a few milliseconds that one scheduling hiccup doubles. Timed again first, now that
  // both sizes have run: the sizing's runs may still have been before the optimising compiler (a
  // stage of 2.5 ms warm timed 10 ms there, and three runs per sample made samples of 7 ms).
  if (lastSmall < floorMs) lastSmall = Math.min(lastSmall, await fastest(run, small, 2));
  const loopsFor = (ms: number): number => Math.ceil((floorMs * 1.5) / Math.max(ms, 0.05));
  let loops = lastSmall < floorMs ? loopsFor(lastSmall) : 1;
  let restarted = false;
  let best: Doubling | null = null;
  for (let attempt = 0; attempt < attempts && (best === null || best.ratio >= MAX_RATIO); attempt++) {
    // Over the limit: measure again one size up. A superlinear stage is over it at every size; a
    // stage whose 2n run just crosses a GC or cache threshold is not, one doubling later.
    if (attempt > 0 && size * 2 <= maxN) {
      size *= 2;
      small = large;
      large = await make(2 * size);
      await run(large);
    }
    // The sizing's last two runs of the small input count as one sample (their minimum). Each rep
    // times the large input, then the small one again: so the two small samples that must agree
    // are taken apart, one after the large input was built and run, and a burst of load that
    // slowed both sizing runs cannot make a superlinear stage look linear.
    const smalls = attempt === 0 && loops === 1 ? [lastSmall] : [];
    let b = Infinity;
    for (let i = 0; i < reps; i++) {
      b = Math.min(b, await timeOf(run, large, loops));
      const t = await timeOf(run, small, loops);
      // Warm, the small input runs well under the floor: the sizing timed it cold (the floor met
      // only before the optimising compiler). Measure again from here with several runs per
      // sample, as for a stage under the floor at maxN, sized by the better of two warm runs;
      // once only.
      if (loops === 1 && !restarted && t < floorMs * 0.75) {
        restarted = true;
        loops = Math.max(2, loopsFor(Math.min(t, await fastest(run, small, 1))));
        smalls.length = 0;
        b = Infinity;
        i = -1;
        continue;
      }
      smalls.push(t);
      if (smalls.length >= 2 && clearlyUnder(smalls, b)) break;
    }
    const a = Math.min(...smalls);
    const d = { n: size, loops, small: round(a), large: round(b), ratio: round(b / Math.max(a, 0.01)) };
    if (best === null || d.ratio < best.ratio) best = d;
  }
  return best as Doubling;
}

async function fastest<T>(run: (input: T) => unknown, input: T, times: number): Promise<number> {
  let min = Infinity;
  for (let i = 0; i < times; i++) min = Math.min(min, await timeOf(run, input));
  return min;
}

/**
 * Wall milliseconds of running `input`. Not the process's CPU time: that
 * counts the collector's helper threads, whose concurrent marking of what
 * earlier tests left lands in whichever run it overlaps, and ratios came out
 * higher (a fresh-clone run on a PVM guest: a parse file took 16 s instead of
 * 6–9 s, its ratios over the limit and measured again one size up).
 */
async function timeOf<T>(run: (input: T) => unknown, input: T, loops = 1): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < loops; i++) await run(input);
  return performance.now() - t0;
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}

/** `label: n=…, small ms, large ms, ratio` — printed so a failure shows its numbers. */
export function describeDoubling(label: string, d: Doubling): string {
  return `${label}: n=${d.n}${d.loops > 1 ? ` (×${d.loops} per sample)` : ''} ${d.small} ms, 2n ${d.large} ms, ratio ${d.ratio}`;
}
