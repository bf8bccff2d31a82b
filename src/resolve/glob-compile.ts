/**
 * Glob compilation, for everything that matches a glob: the resolver
 * (glob-index.ts), the policy's checks, exclusions, owners files and the
 * bundle reader. One dialect and one safety rule everywhere: picomatch with
 * GLOB_OPTIONS; glob-linear.ts's matcher wherever the glob is in its dialect;
 * and no matcher at all for a glob whose backtracking could be exponential.
 */
import picomatch from 'picomatch';
import { linearGlob } from './glob-linear.js';

export const GLOB_OPTIONS: picomatch.PicomatchOptions = { dot: true, strictBrackets: true };

/**
 * Unbounded loops (what picomatch makes of a star, a globstar or an extglob) a glob outside the
 * linear dialect may hold: picomatch backtracks over every way to split a path between them, so
 * two cost at most the square of a name's length, and each more multiplies it again.
 */
export const MAX_BACKTRACKING_WILDCARDS = 2;

/**
 * Compile a glob once; throws nothing — a bad glob is an `ok: false` result. The test is
 * glob-linear.ts's wherever the glob is in that dialect (picomatch compiles every glob of it: a
 * property test checks); else picomatch reads the glob, its errors included, and its test is used
 * when the glob has few enough loops to be safe, else none.
 */
export function compileGlob(glob: string): { ok: true; test: (p: string) => boolean } | { ok: false; error: string } {
  try {
    if (glob.length === 0) return { ok: false, error: 'empty glob' };
    const linear = linearGlob(glob);
    if (linear !== null) return { ok: true, test: linear };
    const test = picomatch(glob, GLOB_OPTIONS);
    const wildcards = unboundedLoops(picomatch.makeRe(glob.startsWith('!') && !glob.startsWith('!(') ? glob.replace(/^!+/, '') : glob, GLOB_OPTIONS).source);
    if (wildcards > MAX_BACKTRACKING_WILDCARDS) {
      return { ok: false, error: `${wildcards} wildcards with brackets, extglobs, quotes, escapes, a range or a leading ! or ./ (at most ${MAX_BACKTRACKING_WILDCARDS} such: matching more can take exponential time); plain globs of *, ?, ** and {a,b} may have any number` };
    }
    return { ok: true, test };
  } catch (e) {
    return { ok: false, error: (e as Error).message };
  }
}

/**
 * The unbounded loops (`*`, `+`) of a regular expression's source, outside escapes and character
 * classes: what picomatch made of the glob's stars, globstars and extglobs (`!(x)` is a loop too,
 * and so is a star after an escaped backslash), counted where they are, not guessed from the glob.
 * A negation's own `.*` around the whole pattern is not counted: compileGlob counts the pattern.
 */
function unboundedLoops(source: string): number {
  let n = 0;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '*' || c === '+') n++;
  }
  return n;
}

/** A test for any of `globs` (a repository's exclusions, an owners line); a glob compileGlob refuses names no path. */
export function anyGlob(globs: readonly string[]): (path: string) => boolean {
  const tests = globs.map(compileGlob).flatMap((c) => (c.ok ? [c.test] : []));
  return (path) => tests.some((t) => t(path));
}
