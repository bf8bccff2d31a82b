/**
 * js-tiktoken's own encoder (`getEncoding`), the reference rulec's counts are checked against:
 * built once per test file (its constructor takes 0.5–2.5 s) and dropped when the file ends.
 * A file that calls referenceEncoding() also calls `afterAll(releaseReferenceEncodings)`.
 *
 * Not kept for the worker's life: the library's encoder holds every token as a string and as
 * bytes, and test workers are shared by many files (`isolate: false`). Built alone, the four
 * encodings took a process from 60 MB to 312 MB resident, and dropping them brought it back to
 * 130 MB; kept, they stayed in whichever worker ran test/unit/token-count.test.ts until the run
 * ended (its heap after a collection grew by 145 MB across that file).
 */
import { getEncoding, type Tiktoken, type TiktokenEncoding } from 'js-tiktoken';

const built = new Map<TiktokenEncoding, Tiktoken>();

export function referenceEncoding(encoding: TiktokenEncoding): Tiktoken {
  let e = built.get(encoding);
  if (!e) built.set(encoding, (e = getEncoding(encoding)));
  return e;
}

/** Drop the encoders built so far (each file's afterAll). */
export function releaseReferenceEncodings(): void {
  built.clear();
}
