/**
 * The refresh operation: an idle registry re-signs its latest state with a
 * new expiry, so admitters that require freshness keep accepting it. It
 * changes nothing else, needs the promote role, and replays like any other
 * operation (an edited state under a refresh is refused).
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admit } from '../../src/registry/admit.js';
import { verifyStep, GENESIS } from '../../src/registry/chain.js';
import { parseIndexDoc } from '../../src/registry/index-doc.js';
import * as ops from '../../src/registry/ops.js';
import { envelopeBytes, PAYLOAD_TYPE, signEnvelope } from '../../src/registry/sign.js';
import { transition } from '../../src/registry/state.js';
import { verifyRegistry } from '../../src/registry/verify.js';
import { compileSchema } from '../../src/config/schema-check.js';
import { canonicalJson } from '../../src/util/canonical-json.js';
import { codeOf, makeKey, mintBundle, policyOf, REPO_ROOT, setup, trustDoc, type Setup } from './helpers.js';

let s: Setup;
const DAY = 86_400_000;
const at = (days: number) => () => new Date(Date.UTC(2030, 0, 1) + days * DAY);

beforeAll(async () => {
  s = setup('rulec-refresh-');
  const b = mintBundle(s.dir, '1.0.0', 1);
  const w = s.writer([s.alice], { now: at(0), lifetimeMs: 7 * DAY });
  await ops.publish(w, b.dir);
  await ops.startCanary(w, { ref: b.digest, bps: 10000 });
  await ops.promote(w);
});
afterAll(() => rmSync(s.dir, { recursive: true, force: true }));

describe('rulec registry refresh', () => {
  it('re-signs the same state with a later expiry, so a fresh-only admitter accepts it again', async () => {
    const fresh = s.admitter({ requireFresh: true, now: at(10) });
    expect(await codeOf(admit(fresh, { run: 'stale' }))).toBe('RC7403');
    const before = (await s.store.latestIndex())!;
    const r = await ops.refresh(s.writer([s.alice], { now: at(9), lifetimeMs: 7 * DAY }));
    const prev = parseIndexDoc(Buffer.from(JSON.parse(before.bytes.toString()).payload, 'base64'), 'index/3');
    expect(prev.ok && canonicalJson(prev.doc.state)).toBe(canonicalJson(r.index.doc.state));
    expect([r.index.seq, r.index.doc.op, r.index.doc.expires]).toEqual([4, { op: 'refresh', actor: 'test' }, at(16)().toISOString()]);
    expect((await admit(fresh, { run: 'fresh' })).index.seq).toBe(4);
    expect((await verifyRegistry(s.store, s.trust)).diagnostics).toEqual([]);
  });

  it('needs the promote role: a publish-only key cannot keep a state alive (RC7306)', async () => {
    const t = setup('rulec-refresh-role-');
    try {
      const ci = makeKey(join(t.dir, 'keys'), 'ci');
      const trust = policyOf(trustDoc([t.alice, ci], { publish: { keys: [t.alice, ci] }, promote: { keys: [t.alice] }, revoke: { keys: [t.alice] } }));
      await ops.publish({ ...t.writer(), trust }, mintBundle(t.dir, '1.0.0', 1).dir);
      expect(await codeOf(ops.refresh({ ...t.writer([ci]), trust }))).toBe('RC7306');
      expect((await ops.refresh({ ...t.writer([t.alice]), trust })).index.seq).toBe(2);
    } finally {
      rmSync(t.dir, { recursive: true, force: true });
    }
  });

  it('is refused on an empty registry (RC7209)', async () => {
    const t = setup('rulec-refresh-empty-');
    try {
      await t.store.init();
      expect(await codeOf(ops.refresh(t.writer()))).toBe('RC7209');
    } finally {
      rmSync(t.dir, { recursive: true, force: true });
    }
  });

  it('replays like any operation: a refresh index that changes the state is refused (RC7206)', () => {
    const state = { bundles: {}, channels: {}, denylist: {} };
    expect(transition(state, { op: 'refresh' }, 1)).toEqual({ ok: true, state });
    const doc = {
      schema: 'https://rulec.dev/schemas/registry-index-v1.json', seq: 1, prev: null, at: '2030-01-01T00:00:00.000Z', expires: '2030-02-01T00:00:00.000Z',
      op: { op: 'refresh', actor: 'mallory' }, audit: { head: `sha256:${'0'.repeat(64)}`, entries: 1 },
      state: { bundles: {}, channels: {}, denylist: { [`sha256:${'1'.repeat(64)}`]: { severity: 'halt', reason: 'x', seq: 1 } } },
    };
    const forged = envelopeBytes(signEnvelope(PAYLOAD_TYPE.index, Buffer.from(canonicalJson(doc)), [s.alice.key]));
    const step = verifyStep(GENESIS, forged, s.trust, 'index/1');
    expect(step.ok ? 'accepted' : step.diagnostic.code).toBe('RC7206');
  });

  it('its index payload validates against the published schema', () => {
    const v = compileSchema(JSON.parse(readFileSync(join(REPO_ROOT, 'schemas', 'registry-index.schema.json'), 'utf8')));
    const envelope = JSON.parse(readFileSync(join(s.storeDir, 'index', '000000000004.dsse.json'), 'utf8'));
    const payload = JSON.parse(Buffer.from(envelope.payload, 'base64').toString());
    expect(payload.op.op).toBe('refresh');
    expect(v(payload), JSON.stringify(v.errors)).toBe(true);
  });
});
