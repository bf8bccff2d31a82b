/**
 * Exact token counts with js-tiktoken, memoised by content hash so each unique
 * text is encoded once however many variants share it.
 */
import { getEncoding, type TiktokenEncoding } from 'js-tiktoken';
import { sha256Hex } from '../util/hash.js';

export interface TokenCounter {
  readonly encoding: string;
  count(text: string): number;
}

const encoders = new Map<string, ReturnType<typeof getEncoding>>();

export function tokenCounter(encoding: TiktokenEncoding): TokenCounter {
  const cache = new Map<string, number>();
  const encoder = (): ReturnType<typeof getEncoding> => {
    let e = encoders.get(encoding);
    if (!e) encoders.set(encoding, (e = getEncoding(encoding)));
    return e;
  };
  return {
    encoding,
    count(text: string): number {
      if (text.length === 0) return 0;
      const key = text.length < 64 ? text : sha256Hex(text);
      let n = cache.get(key);
      if (n === undefined) {
        n = encoder().encode(text, [], []).length;
        cache.set(key, n);
      }
      return n;
    },
  };
}
