/**
 * js-tiktoken's own encoder (`getEncoding`), the reference rulec's counts are checked against:
 * built once per test worker and shared by the files it runs (its constructor takes 0.5–2.5 s).
 */
import { getEncoding, type Tiktoken, type TiktokenEncoding } from 'js-tiktoken';

const built = new Map<TiktokenEncoding, Tiktoken>();

export function referenceEncoding(encoding: TiktokenEncoding): Tiktoken {
  let e = built.get(encoding);
  if (!e) built.set(encoding, (e = getEncoding(encoding)));
  return e;
}
