/**
 * A first admission replays the whole index chain; against a remote store it
 * reads the indexes a few at a time ahead of the one it verifies (a remote
 * answers many requests at once). The replay is the same, in order; a read
 * that fails after a refusal was decided is never an unhandled rejection.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admit } from '../../src/registry/admit.js';
import { registryError } from '../../src/registry/errors.js';
import * as ops from '../../src/registry/ops.js';
import type { Store } from '../../src/registry/store.js';
import { mintBundle, setup, type Setup } from './helpers.js';

let s: Setup;
beforeAll(async () => {
  s = setup('rulec-read-ahead-');
  const b = mintBundle(s.dir, '1.0.0', 1);
  const w = s.writer();
  await ops.publish(w, b.dir);
  await ops.startCanary(w, { ref: b.digest, bps: 10000 });
  await ops.promote(w);
  for (let i = 0; i < 20; i++) await ops.refresh(w);
});
afterAll(() => rmSync(s.dir, { recursive: true, force: true }));

/** The local store, with slow reads that count how many are in flight (and fail for the seqs `fails`). */
function slow(store: Store, fails: (seq: number) => boolean = () => false): Store & { most: number; asked: number[] } {
  let inFlight = 0;
  const wrapped = Object.create(store) as Store & { most: number; asked: number[] };
  wrapped.most = 0;
  wrapped.asked = [];
  wrapped.indexAt = async (seq: number) => {
    wrapped.asked.push(seq);
    inFlight += 1;
    wrapped.most = Math.max(wrapped.most, inFlight);
    await new Promise((r) => setTimeout(r, 5));
    inFlight -= 1;
    if (fails(seq)) throw registryError('RC7610', { file: '', message: `index ${seq}: the connection was cut` });
    return store.indexAt(seq);
  };
  return wrapped;
}

describe('a first admission replays the chain with reads ahead', () => {
  it('reads up to 8 indexes at once, each once, and admits what a sequential replay admits', async () => {
    const store = slow(s.store);
    const a = await admit({ store, trust: s.trust, stateDir: join(s.dir, 'ahead') }, { run: 'r' });
    expect(a.index.seq).toBe(23);
    expect(store.most).toBeGreaterThan(1);
    expect(store.most).toBeLessThanOrEqual(8);
    // 1–22 by the replay, 23 by latestIndex (the local store reads its head through indexAt).
    expect([...store.asked].sort((x, y) => x - y)).toEqual(Array.from({ length: 23 }, (_, i) => i + 1));
  });

  it('a read that fails is reported at its turn; reads already asked ahead never go unhandled', async () => {
    // Every read from seq 10 on fails but the head's (read by latestIndex): the replay stops at 10 with 11–17 asked ahead.
    const store = slow(s.store, (seq) => seq >= 10 && seq < 23);
    await expect(admit({ store, trust: s.trust, stateDir: join(s.dir, 'cut') }, { run: 'r' })).rejects.toMatchObject({ code: 'RC7610' });
    await new Promise((r) => setTimeout(r, 50));
  });
});
