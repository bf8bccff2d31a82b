/**
 * What a glob's text alone says about the paths it can match, before any path
 * list is read: the literal directory every match lies in, the segments below
 * it (split at `/` outside braces, brackets and extglobs: `{apps/web/src,lib}/**`
 * has two segments, not four), whether a segment is a plain name, and the
 * extension of a `*.ext` last segment. The resolver's index (glob-index.ts)
 * narrows its candidates with it; the bundle reader (manifest-lookup.ts) finds
 * the rules that may attach to a path with it.
 *
 * A glob with an escape, a quote or a `|` outside parentheses is not narrowed:
 * those change what a name or a `/` means, and they are rare.
 */
import picomatch from 'picomatch';

const GLOB_CHARS = /[*?[\]{}()!+@\\]/;
/** Escapes, quotes and alternation outside parentheses: see the header. */
const UNNARROWABLE = /[\\"|]/;

/** Whether a segment of a glob is a plain name. */
export const isLiteralSegment = (segment: string): boolean => !GLOB_CHARS.test(segment);

/** `ext` of a last segment `*.ext` (no glob characters in `ext`), else undefined. */
export const extensionOf = (last: string): string | undefined => /^\*\.([^*?[\]{}()!+@/\\]+)$/.exec(last)?.[1];

/** The characters of glob syntax: text before the first of them is literal. */
const SYNTAX = /[*?[\]{}()!+@]/;

/**
 * The directory every path a glob matches lies in, from its text alone, with
 * no scan: the whole segments before its first glob character. A path
 * outside it cannot match. picomatch.scan's base is this directory or one
 * below it; where scan would not narrow at all ('./' or '/' in front, a
 * negation, an escape, a quote, a `|`) this is '', which holds every path.
 */
export function literalDir(glob: string): string {
  if (glob.startsWith('.') || glob.startsWith('/') || glob.startsWith('!') || UNNARROWABLE.test(glob)) return '';
  const stop = glob.search(SYNTAX);
  const literal = stop < 0 ? glob : glob.slice(0, stop);
  const slash = literal.lastIndexOf('/');
  return slash < 0 ? '' : literal.slice(0, slash);
}

/**
 * How a glob may be narrowed: its literal base directory and its segments
 * below the base (split at top-level `/` only); `literal` when it is a plain
 * path. Null when no narrowing is safe: a negated glob matches what its
 * pattern does not, and see the header for the rest.
 */
export function globShape(glob: string): { literal: boolean; base: string; segments: string[] } | null {
  const scan = picomatch.scan(glob);
  if (scan.negated || UNNARROWABLE.test(glob)) return null;
  // scan() takes a comma-less brace (`{{slug}}/**`, `src/{lib}/*.ts`) for no glob at all and the
  // whole pattern for its base, while the matcher still reads the `**` and `*` after it.
  if (!scan.isGlob && GLOB_CHARS.test(glob)) return null;
  const segments = topLevelSegments(scan.glob);
  if (segments === null) return null;
  return { literal: !scan.isGlob && scan.base === glob, base: scan.base, segments };
}

/**
 * The glob split at each `/` that lies outside `{}`, `[]` and `()`; null when
 * those do not balance (picomatch then reads them literally — no narrowing).
 */
function topLevelSegments(globPart: string): string[] | null {
  const segments: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < globPart.length; i++) {
    const c = globPart[i];
    if (c === '{' || c === '[' || c === '(') depth++;
    else if (c === '}' || c === ']' || c === ')') {
      if (--depth < 0) return null;
    } else if (c === '/' && depth === 0) {
      segments.push(globPart.slice(start, i));
      start = i + 1;
    }
  }
  if (depth !== 0) return null;
  segments.push(globPart.slice(start));
  return segments;
}
