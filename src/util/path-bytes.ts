/**
 * File names are bytes; rulec's paths are strings. A name that is not UTF-8
 * decodes with U+FFFD in place of its bad bytes, and no read through that
 * string finds the file — yet git tracks it and an agent that lists its
 * directory loads it. Such names are found here, so discovery can say so
 * instead of passing over the file in silence.
 */
import { isUtf8 } from 'node:buffer';

const strict = new TextDecoder('utf-8', { fatal: true });

/**
 * Listed names that are not UTF-8: the decoded string → every name listed under it, shown with its
 * bad bytes as `\xNN`. Several names can decode to one string (`d\xff`, `d\xfe` and a real
 * `d\uFFFD` alike): each is reported, none hides another. A set, so that any number of them
 * costs linear time.
 */
export type UndecodableNames = Map<string, Set<string>>;

/** Record that `shown` (a name that is not UTF-8, escaped) was listed under the string `decoded`. */
export function noteUndecodable(names: UndecodableNames, decoded: string, shown: string): void {
  const all = names.get(decoded);
  if (all === undefined) names.set(decoded, new Set([shown]));
  else all.add(shown);
}

/** The name with each byte that is not part of valid UTF-8 shown as `\xNN`: printable, and distinct for distinct bytes. */
export function visibleName(bytes: Uint8Array): string {
  let out = '';
  let start = 0;
  while (start < bytes.length) {
    // The longest valid prefix decodes as text; the byte that stops it is shown escaped.
    let end = bytes.length;
    for (;;) {
      try {
        out += strict.decode(bytes.subarray(start, end));
        start = end;
        break;
      } catch {
        if (end - start <= 1) {
          out += `\\x${(bytes[start] as number).toString(16).padStart(2, '0')}`;
          start += 1;
          break;
        }
        end = start + Math.floor((end - start) / 2);
      }
    }
  }
  return out;
}

/**
 * NUL-separated names (git's `-z` output) as strings, and in `bad` each one that is not UTF-8
 * (noteUndecodableEntries). `pathOf` takes the path out of an entry (pathAfterTab for ls-files
 * --stage). Decodes once; splits byte by byte only when the text holds a U+FFFD at all.
 */
export function splitNames(out: Uint8Array | undefined, bad: UndecodableNames, pathOf: (entry: Uint8Array) => Uint8Array = (e) => e): string[] {
  if (out === undefined || out.length === 0) return [];
  const text = Buffer.from(out.buffer, out.byteOffset, out.byteLength).toString('utf8');
  if (text.includes('\uFFFD')) noteUndecodableEntries(out, bad, pathOf);
  return text.split('\0').filter((p) => p.length > 0);
}

/**
 * Each NUL-separated entry of `out` whose path (`pathOf`) is not UTF-8, noted in `bad` under its
 * decoded string. For a caller that has decoded `out` itself and found a U+FFFD in it.
 */
export function noteUndecodableEntries(out: Uint8Array, bad: UndecodableNames, pathOf: (entry: Uint8Array) => Uint8Array = (e) => e): void {
  const buf = Buffer.from(out.buffer, out.byteOffset, out.byteLength);
  for (let start = 0; start < buf.length;) {
    const nul = buf.indexOf(0, start);
    const end = nul < 0 ? buf.length : nul;
    const entry = buf.subarray(start, end);
    if (entry.length > 0 && !isUtf8(entry)) {
      const path = pathOf(entry);
      noteUndecodable(bad, Buffer.from(path).toString('utf8'), visibleName(path));
    }
    start = end + 1;
  }
}

/** The path of a git listing entry "<mode> <object>[ …]\t<path>" (ls-files --stage, ls-tree). */
export function pathAfterTab(entry: Uint8Array): Uint8Array {
  return entry.subarray(entry.indexOf(9) + 1);
}
