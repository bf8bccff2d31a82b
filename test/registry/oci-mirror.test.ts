/**
 * The OCI mirror against a real registry (docker-registry on loopback):
 * mirror what the channels serve and the signed index chain; admit from it;
 * and every tamper and replay of the mirror refused with a code — a head tag
 * pointed back at an older signed index (RC7401), a per-seq tag holding
 * another index (RC7701), an expired index (RC7403), a swapped blob (RC7702),
 * endless data (RC7612), a mirror ahead of its source (RC7703).
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admit } from '../../src/registry/admit.js';
import { mirror } from '../../src/registry/mirror.js';
import * as ops from '../../src/registry/ops.js';
import { HEAD_TAG, indexTag } from '../../src/registry/remote/oci-layout.js';
import { OciStore } from '../../src/registry/stores/oci.js';
import { codeOf, mintBundle, setup, type Setup } from './helpers.js';
import { readWholeManifest } from '../helpers/bundle-manifest.js';
import { REGISTRY_MISSING, startRegistry, type RunningRegistry } from './oci-registry.js';

let reg: RunningRegistry;
let s: Setup;
let repoCount = 0;
const stores: OciStore[] = [];
const B: ReturnType<typeof mintBundle>[] = [];

/** A fresh repository on the registry, with the registry of `s` mirrored into it. */
async function mirrored(extra: { now?: () => Date } = {}): Promise<{ spec: string; store: OciStore; seq: number }> {
  const spec = reg.spec(`acme/rules-${repoCount++}`);
  const store = oci(spec);
  const r = await mirror({ source: s.store, trust: s.trust, target: store, ...extra });
  return { spec, store, seq: r.latest.seq };
}

function oci(spec: string, o: ConstructorParameters<typeof OciStore>[1] = {}): OciStore {
  const store = new OciStore(spec, o);
  stores.push(store);
  return store;
}

let admitters = 0;
const admitterOn = (store: OciStore, extra: { now?: () => Date } = {}) => ({ store, trust: s.trust, stateDir: join(s.dir, `admit-${admitters++}`), requireFresh: true, ...extra });

beforeAll(async () => {
  if (REGISTRY_MISSING) return;
  reg = await startRegistry();
  s = setup('rulec-oci-mirror-');
  for (const [i, v] of ['1.0.0', '1.1.0'].entries()) B.push(mintBundle(s.dir, v, 10 + i));
  const w = s.writer();
  await ops.publish(w, B[0]!.dir);
  await ops.startCanary(w, { ref: B[0]!.digest, bps: 10000 });
  await ops.promote(w);
  await ops.publish(w, B[1]!.dir);
  await ops.startCanary(w, { ref: B[1]!.digest, bps: 5000, salt: 'r1' });
});
afterAll(async () => {
  for (const st of stores) st.close();
  await reg?.stop();
  if (s) rmSync(s.dir, { recursive: true, force: true });
});

describe.skipIf(REGISTRY_MISSING !== null)('rulec registry mirror to an OCI registry', () => {
  it('pushes the served bundles and every signed index; an admitter gets what the store gives', async () => {
    const { store, seq } = await mirrored();
    expect(seq).toBe(5);
    for (const subject of ['repo:acme/api', 'repo:acme/web', 'user:alice']) {
      const fromMirror = await admit(admitterOn(store), { subject, run: 'r' });
      const fromStore = await admit({ store: s.store, trust: s.trust, stateDir: join(s.dir, `local-${subject.replace(/\W/g, '-')}`) }, { subject, run: 'r' });
      expect(fromMirror.pin.digest).toBe(fromStore.pin.digest);
      expect(fromMirror.index.digest).toBe(fromStore.index.digest);
    }
  });

  it('mirrors again incrementally: nothing twice, then only the new index', async () => {
    const spec = reg.spec(`acme/rules-${repoCount++}`);
    const first = await mirror({ source: s.store, trust: s.trust, target: oci(spec) });
    expect(first.pushed.indexes).toBe(5);
    expect(first.served.map((x) => [x.role, x.digest])).toEqual([['promoted', B[0]!.digest], ['canary', B[1]!.digest]]);
    const again = await mirror({ source: s.store, trust: s.trust, target: oci(spec) });
    expect([again.from, again.pushed.indexes, again.pushed.bundles]).toEqual([5, 0, 0]);
    expect(again.pushed.blobs).toBe(0);
  });

  it('refuses a head tag pointed back at an older signed index (rollback, RC7401), until mirrored again', async () => {
    const { spec, store } = await mirrored();
    const admitter = admitterOn(store);
    await admit(admitter, { run: 'first' });
    // The attacker re-tags `index` to the signed index of seq 3 and removes the newer per-seq tags.
    const old = await store.client.getManifest(indexTag(3));
    await store.client.putManifest(HEAD_TAG, old!.bytes);
    for (const seq of [4, 5]) await store.client.deleteManifest((await store.client.headManifest(indexTag(seq)))!);
    expect(await codeOf(admit({ ...admitter, store: oci(spec) }, { run: 'second' }))).toBe('RC7401');
    expect(readdirSync(join(admitter.stateDir, 'pins'))).toEqual(['first.json']);
    await mirror({ source: s.store, trust: s.trust, target: oci(spec) });
    expect((await admit({ ...admitter, store: oci(spec) }, { run: 'second' })).index.seq).toBe(5);
  });

  it('refuses a per-seq tag that holds another index (RC7701)', async () => {
    const { spec, store } = await mirrored();
    await store.client.putManifest(indexTag(2), (await store.client.getManifest(indexTag(1)))!.bytes);
    expect(await codeOf(admit(admitterOn(oci(spec)), { run: 'x' }))).toBe('RC7701');
  });

  it('refuses an expired index (freeze, RC7403); a refresh and a mirror make it fresh again', async () => {
    const later = () => new Date(Date.now() + 40 * 86_400_000);
    const { spec, store } = await mirrored();
    expect(await codeOf(admit(admitterOn(store, { now: later }), { run: 'frozen' }))).toBe('RC7403');
    expect(await codeOf(mirror({ source: s.store, trust: s.trust, target: oci(spec), now: later }))).toBe('RC7403');
    const t = setup('rulec-oci-refresh-');
    try {
      const m = mintBundle(t.dir, '1.0.0', 1);
      await ops.publish(t.writer(), m.dir);
      await ops.startCanary(t.writer(), { ref: m.digest, bps: 10000 });
      await ops.promote(t.writer(), {});
      const target = oci(reg.spec(`acme/rules-${repoCount++}`));
      await mirror({ source: t.store, trust: t.trust, target });
      const frozen = { store: target, trust: t.trust, stateDir: join(t.dir, 'admit'), requireFresh: true, now: later };
      expect(await codeOf(admit(frozen, { run: 'a' }))).toBe('RC7403');
      await ops.refresh(t.writer([t.alice], { lifetimeMs: 60 * 86_400_000 }));
      await mirror({ source: t.store, trust: t.trust, target });
      expect((await admit(frozen, { run: 'a' })).pin.digest).toBe(m.digest);
    } finally {
      rmSync(t.dir, { recursive: true, force: true });
    }
  });

  it('refuses a swapped blob (mix-and-match, RC7702): nothing is admitted', async () => {
    const { store } = await mirrored();
    const text = readWholeManifest(B[0]!.dir).variants;
    const digest = (Object.values(text)[0] as { sha256: string }).sha256;
    const file = reg.blobFile(digest);
    const original = readFileSync(file);
    // Another bundle's text of the same length, as a mirror mixing bundles would serve.
    writeFileSync(file, Buffer.from(original.toString('utf8').replace(/[a-z]/, (c) => (c === 'a' ? 'b' : 'a'))));
    try {
      const admitter = admitterOn(store);
      expect(await codeOf(admit(admitter, { run: 'swapped' }))).toBe('RC7702');
      expect(existsSync(join(admitter.stateDir, 'pins', 'swapped.json'))).toBe(false);
      expect(readdirSync(join(admitter.stateDir, 'bundles')).filter((n) => !n.endsWith('.dsse.json') && !n.startsWith('.tmp'))).toEqual([]);
    } finally {
      writeFileSync(file, original);
    }
  });

  it('refuses to move a mirror back to a source with fewer indexes (RC7703)', async () => {
    const { store } = await mirrored();
    const t = setup('rulec-oci-behind-');
    try {
      await ops.publish(t.writer(), mintBundle(t.dir, '1.0.0', 1).dir);
      expect(await codeOf(mirror({ source: t.store, trust: t.trust, target: store }))).toBe('RC7703');
    } finally {
      rmSync(t.dir, { recursive: true, force: true });
    }
  });
});

describe('endless data from a hostile registry', () => {
  let server: http.Server;
  let port = 0;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url?.endsWith('/manifests/index')) {
        // A manifest that never ends (chunked, no Content-Length).
        res.writeHead(200, { 'content-type': 'application/vnd.oci.image.manifest.v1+json' });
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        const pump = (): void => { while (res.write(chunk)); };
        res.on('drain', pump);
        pump();
        req.on('close', () => res.destroy());
      } else if (req.url?.includes('/blobs/')) {
        res.writeHead(200, { 'content-length': String(1024 * 1024 * 1024) });
        res.end();
      } else {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }));

  it('cuts a streaming response at its limit and refuses an announced one before reading it (RC7612)', async () => {
    const store = new OciStore(`oci+http://127.0.0.1:${port}/acme/rules`, { maxManifestBytes: 256 * 1024, maxBlobBytes: 1024 * 1024 });
    try {
      expect(await codeOf(store.latestIndex())).toBe('RC7612');
      expect(await codeOf(store.getBlob(`sha256:${'a'.repeat(64)}`))).toBe('RC7612');
    } finally {
      store.close();
    }
  });
});
