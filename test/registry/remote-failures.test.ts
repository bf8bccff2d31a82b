/**
 * Failure injection on the remote stores: the registry (real, on loopback)
 * behind a proxy that goes down or cuts connections on cue, and a git remote
 * whose hook declines a push. In every case: a clear coded error, nothing
 * half-admitted or half-published, and a retry that succeeds.
 */
import { chmodSync, existsSync, readdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admit } from '../../src/registry/admit.js';
import { AdmitterState } from '../../src/registry/admitter-state.js';
import { mirror } from '../../src/registry/mirror.js';
import * as ops from '../../src/registry/ops.js';
import { HEAD_TAG } from '../../src/registry/remote/oci-layout.js';
import { GitStore } from '../../src/registry/stores/git.js';
import { OciStore } from '../../src/registry/stores/oci.js';
import { codeOf, mintBundle, setup, type Setup } from './helpers.js';
import { proxy, REGISTRY_MISSING, startRegistry, type FaultyProxy, type RunningRegistry } from './oci-registry.js';
import { bareRepository } from '../helpers/fixture-repo.js';

let s: Setup;
let bundle: ReturnType<typeof mintBundle>;
const closers: { close(): unknown }[] = [];
beforeAll(async () => {
  s = setup('rulec-remote-fail-');
  bundle = mintBundle(s.dir, '1.0.0', 1);
  await ops.publish(s.writer(), bundle.dir);
  await ops.startCanary(s.writer(), { ref: bundle.digest, bps: 10000 });
  await ops.promote(s.writer());
});
afterAll(async () => {
  for (const c of closers) await c.close();
  rmSync(s.dir, { recursive: true, force: true });
});

function oci(spec: string): OciStore {
  const st = new OciStore(spec, { timeoutMs: 5000 });
  closers.push(st);
  return st;
}

/** What an admitter holds: its pins, its checkpoint seq, its bundle directories. */
function held(stateDir: string): { pins: string[]; checkpoint: number | null; bundles: string[] } {
  const ls = (d: string) => (existsSync(d) ? readdirSync(d).sort() : []);
  return { pins: ls(join(stateDir, 'pins')), checkpoint: new AdmitterState(stateDir).readCheckpoint()?.seq ?? null, bundles: ls(join(stateDir, 'bundles')) };
}

const blobGet = (digest: string) => (method: string, path: string) => method === 'GET' && path.endsWith(`/blobs/${digest}`);

describe.skipIf(REGISTRY_MISSING !== null)('an OCI mirror that fails midway', () => {
  let reg: RunningRegistry;
  let px: FaultyProxy;
  const text = () => Object.values(bundle.manifest.variants)[0]!.sha256;
  beforeAll(async () => {
    reg = await startRegistry();
    px = await proxy(reg.port);
    closers.push(px);
    await mirror({ source: s.store, trust: s.trust, target: oci(reg.spec('fail/pull')) });
  });
  afterAll(() => reg?.stop());

  it('registry down mid-pull: RC7610, nothing admitted; the retry admits', async () => {
    const stateDir = join(s.dir, 'down');
    px.fail(blobGet(text()), { kind: 'down' });
    expect(await codeOf(admit({ store: oci(px.spec('fail/pull')), trust: s.trust, stateDir, requireFresh: true }, { run: 'r1' }))).toBe('RC7610');
    expect(held(stateDir)).toEqual({ pins: [], checkpoint: null, bundles: [] });
    px.clear();
    const a = await admit({ store: oci(px.spec('fail/pull')), trust: s.trust, stateDir, requireFresh: true }, { run: 'r1' });
    expect([a.pin.digest, held(stateDir).pins]).toEqual([bundle.digest, ['r1.json']]);
  });

  it('a blob cut off mid-download: RC7610, never taken as the whole; the retry admits', async () => {
    const stateDir = join(s.dir, 'cut');
    px.fail(blobGet(text()), { kind: 'cut-response', after: 40 });
    expect(await codeOf(admit({ store: oci(px.spec('fail/pull')), trust: s.trust, stateDir, requireFresh: true }, { run: 'r1' }))).toBe('RC7610');
    expect(held(stateDir)).toEqual({ pins: [], checkpoint: null, bundles: [] });
    px.clear();
    expect((await admit({ store: oci(px.spec('fail/pull')), trust: s.trust, stateDir, requireFresh: true }, { run: 'r1' })).pin.digest).toBe(bundle.digest);
  });

  it('a partial blob upload: the mirror fails (RC7610), the registry holds no such blob, the retry completes it', async () => {
    const t = setup('rulec-remote-fail-upload-');
    closers.push({ close: () => rmSync(t.dir, { recursive: true, force: true }) });
    const big = mintBundle(t.dir, '1.0.0', 1);
    await ops.publish(t.writer(), big.dir);
    await ops.startCanary(t.writer(), { ref: big.digest, bps: 10000 });
    const target = oci(px.spec('fail/upload'));
    px.fail((m, p) => m === 'PUT' && p.includes('/blobs/uploads/') && p.includes(encodeURIComponent(big.digest)), { kind: 'cut-request', after: 100 }, 1);
    expect(await codeOf(mirror({ source: t.store, trust: t.trust, target }))).toBe('RC7610');
    expect(await target.client.hasBlob(big.digest)).toBe(false);
    expect(await target.client.headManifest(HEAD_TAG)).toBeNull();
    px.clear();
    await mirror({ source: t.store, trust: t.trust, target });
    expect((await target.client.getBlob(big.digest))?.length).toBeGreaterThan(100);
    expect((await admit({ store: target, trust: t.trust, stateDir: join(t.dir, 'admit'), requireFresh: true }, { subject: 'repo:acme/api' })).pin.digest).toBe(big.digest);
  });

  it('a mirror cut off before its last index: readers still get the previous head, whole; the retry moves it', async () => {
    const t = setup('rulec-remote-fail-mirror-');
    closers.push({ close: () => rmSync(t.dir, { recursive: true, force: true }) });
    const [a, b] = [mintBundle(t.dir, '1.0.0', 1), mintBundle(t.dir, '1.1.0', 2)];
    const w = t.writer();
    await ops.publish(w, a.dir);
    await ops.startCanary(w, { ref: a.digest, bps: 10000 });
    await ops.promote(w);
    const target = oci(px.spec('fail/push'));
    await mirror({ source: t.store, trust: t.trust, target });
    await ops.publish(w, b.dir);
    await ops.startCanary(w, { ref: b.digest, bps: 10000 });
    px.fail((m, p) => m === 'PUT' && p.endsWith(`/manifests/${HEAD_TAG}`), { kind: 'down' });
    expect(await codeOf(mirror({ source: t.store, trust: t.trust, target }))).toBe('RC7610');
    px.clear();
    // The per-seq tags that made it are found; the bundles they serve were pushed before them.
    const reader = { store: oci(px.spec('fail/push')), trust: t.trust, stateDir: join(t.dir, 'admit'), requireFresh: true };
    expect((await admit(reader, { subject: 'repo:acme/api' })).pin.digest).toBe(b.digest);
    const again = await mirror({ source: t.store, trust: t.trust, target });
    expect([again.from, again.pushed.indexes]).toEqual([5, 0]);
  });

  it('a redirect to plain HTTP off this machine is refused before the request (RC7613)', async () => {
    const server = http.createServer((req, res) => res.writeHead(307, { location: `http://registry.example.com${req.url}` }).end());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    closers.push({ close: () => new Promise<void>((r) => server.close(() => r())) });
    const st = oci(`oci+http://127.0.0.1:${(server.address() as AddressInfo).port}/acme/rules`);
    expect(await codeOf(st.getBlob(bundle.digest))).toBe('RC7613');
  });
});

describe('a git remote that fails midway', () => {
  it('a push the remote declines (a hook): RC7602, nothing committed; accepted once the hook allows it', async () => {
    const remote = join(s.dir, 'declining.git');
    bareRepository(remote);
    const gate = join(s.dir, 'closed');
    writeFileSync(join(remote, 'hooks', 'pre-receive'), `#!/bin/sh\nif [ -e '${gate}' ]; then echo "publishing is frozen" >&2; exit 1; fi\n`);
    chmodSync(join(remote, 'hooks', 'pre-receive'), 0o755);
    const store = new GitStore(`git+${remote}`, { cacheDir: join(s.dir, 'cache-a') });
    closers.push(store);
    const w = s.writer([s.alice], { store });
    await ops.publish(w, bundle.dir);
    writeFileSync(gate, '');
    expect(await codeOf(ops.startCanary(w, { ref: bundle.digest, bps: 10000 }))).toBe('RC7602');
    const other = new GitStore(`git+${remote}`, { cacheDir: join(s.dir, 'cache-b') });
    closers.push(other);
    expect((await other.latestIndex())?.seq).toBe(1);
    unlinkSync(gate);
    expect((await ops.startCanary(w, { ref: bundle.digest, bps: 10000 })).index.seq).toBe(2);
    expect((await other.latestIndex())?.seq).toBe(2);
  });

  it('an unreachable remote: RC7601 (git never prompts)', async () => {
    const store = new GitStore(`git+${join(s.dir, 'no-such-repo.git')}`, { cacheDir: join(s.dir, 'cache-c') });
    closers.push(store);
    expect(await codeOf(store.exists())).toBe('RC7601');
    expect(await codeOf(ops.publish(s.writer([s.alice], { store }), bundle.dir))).toBe('RC7601');
  });
});
