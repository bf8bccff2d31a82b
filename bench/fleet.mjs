#!/usr/bin/env node
// `npm run bench:fleet` — a fleet of agent runtimes admitting runs against an OCI mirror on
// loopback (Debian's docker-registry), with the local directory store beside it.
//
//   node bench/fleet.mjs [--admissions 1000] [--hosts 50] [--concurrency 8] [--history 0]
//                        [--out .bench/fleet.json]
//
// A registry is built with the library (publish, canary, promote, a second bundle in a 20 %
// canary, then --history refreshes), mirrored to a fresh repository, and `--admissions`
// runs are admitted across `--hosts` runtimes (each its own admitter state directory and
// HTTP connections: a machine with its checkpoint and bundle cache), `--concurrency` at a
// time, for random subjects. Reported per store: admissions/s and latency p50/p99/max, for
// all admissions and split into a host's first admission (cold: replays the index chain from
// seq 1 and fetches the bundle) and the rest (warm). See bench/README.md.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const REPO_ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = (p) => import(path.join(REPO_ROOT, 'dist', p));

const { values } = parseArgs({
  options: {
    admissions: { type: 'string', default: '1000' },
    hosts: { type: 'string', default: '50' },
    concurrency: { type: 'string', default: '8' },
    history: { type: 'string', default: '0' },
    out: { type: 'string', default: path.join(REPO_ROOT, '.bench', 'fleet.json') },
  },
});
const N = Number(values.admissions);
const HOSTS = Number(values.hosts);
const CONCURRENCY = Number(values.concurrency);
const HISTORY = Number(values.history);

const BIN = ['/usr/bin/docker-registry', ...(process.env.PATH ?? '').split(path.delimiter).map((d) => path.join(d, 'docker-registry'))].find((p) => fs.existsSync(p));
if (!BIN) {
  console.error('docker-registry is not installed (apt-get install docker-registry): the fleet benchmark needs a real OCI registry');
  process.exit(1);
}

const { admit } = await dist('registry/admit.js');
const ops = await dist('registry/ops.js');
const { mirror } = await dist('registry/mirror.js');
const { LocalStore } = await dist('registry/stores/local.js');
const { OciStore } = await dist('registry/stores/oci.js');
const { generateKey, loadSigningKey } = await dist('registry/keys.js');
const { parseTrust, TRUST_SCHEMA_ID } = await dist('registry/trust.js');
const { contentOf, manifestBytes, sealManifest } = await dist('bundle/model.js');
const { currentBundleDir } = await dist('bundle/open-bundle.js');

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'rulec-fleet-'));

function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** docker-registry on a free loopback port, storage under the work dir. */
async function startRegistry() {
  const port = await freePort();
  const config = path.join(work, 'registry.yml');
  fs.writeFileSync(config, ['version: 0.1', 'log:', '  level: error', '  accesslog:', '    disabled: true', 'storage:', '  filesystem:', `    rootdirectory: ${path.join(work, 'registry')}`, 'http:', `  addr: 127.0.0.1:${port}`, ''].join('\n'));
  const child = spawn(BIN, ['serve', config], { stdio: 'ignore' });
  for (let i = 0; i < 400; i++) {
    const ok = await new Promise((r) => http.get({ host: '127.0.0.1', port, path: '/v2/' }, (res) => { res.resume(); r(res.statusCode === 200); }).on('error', () => r(false)));
    if (ok) return { port, child };
    await new Promise((r) => setTimeout(r, 25));
  }
  child.kill('SIGKILL');
  throw new Error('docker-registry did not start');
}

/** A copy of the dogfood bundle with another revision (so another digest). */
function mint(version, seq) {
  const seed = currentBundleDir(path.join(REPO_ROOT, 'bundles'));
  const m = JSON.parse(fs.readFileSync(path.join(seed, 'manifest.json'), 'utf8'));
  const manifest = sealManifest(contentOf(m), { version, seq }, m.source);
  const dir = path.join(work, `bundle-${version}`);
  fs.cpSync(seed, dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'manifest.json'), manifestBytes(manifest));
  return dir;
}

async function buildRegistry() {
  const k = generateKey();
  fs.writeFileSync(path.join(work, 'release.key'), k.privatePem, { mode: 0o600 });
  const key = loadSigningKey(path.join(work, 'release.key'));
  const role = { keys: [key.keyid], threshold: 1 };
  const trust = parseTrust(JSON.stringify({ schema: TRUST_SCHEMA_ID, keys: { [key.keyid]: { name: 'release', public_key: k.publicKey } }, roles: { publish: role, promote: role, revoke: role } }), 'trust.json');
  if (!trust.ok) throw new Error('trust');
  const store = new LocalStore(path.join(work, 'store'));
  const w = { store, trust: trust.trust, keys: [key], actor: 'bench' };
  const a = await ops.publish(w, mint('1.0.0', 1));
  await ops.startCanary(w, { ref: a.stored.digest, bps: 10000 });
  await ops.promote(w);
  const b = await ops.publish(w, mint('1.1.0', 2));
  await ops.startCanary(w, { ref: b.stored.digest, bps: 2000 });
  for (let i = 0; i < HISTORY; i++) await ops.refresh(w);
  return { store, trust: trust.trust };
}

function quantile(sorted, q) {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

function summary(latencies) {
  const s = [...latencies].sort((x, y) => x - y);
  return { n: s.length, p50: quantile(s, 0.5), p99: quantile(s, 0.99), max: s.at(-1) ?? 0 };
}

/** `N` admissions over `HOSTS` runtimes, CONCURRENCY in flight; each host's first is cold. */
async function fleet(name, openStore, trust) {
  const hosts = Array.from({ length: HOSTS }, (_, i) => ({ store: openStore(), stateDir: path.join(work, `${name}-host-${i}`), admitted: 0 }));
  const all = [];
  const cold = [];
  const warm = [];
  let next = 0;
  const t0 = performance.now();
  const lane = async () => {
    while (next < N) {
      const i = next++;
      const host = hosts[i % HOSTS];
      const first = host.admitted++ === 0;
      const start = performance.now();
      await admit({ store: host.store, trust, stateDir: host.stateDir, requireFresh: true }, { subject: `repo:acme/r${randomBytes(4).toString('hex')}`, run: `run-${i}` });
      const ms = performance.now() - start;
      all.push(ms);
      (first ? cold : warm).push(ms);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  const seconds = (performance.now() - t0) / 1000;
  for (const h of hosts) h.store.close?.();
  return { store: name, admissions: N, seconds, perSecond: N / seconds, all: summary(all), cold: summary(cold), warm: summary(warm) };
}

const fmt = (ms) => `${ms.toFixed(1)} ms`;

let registry;
try {
  const { store, trust } = await buildRegistry();
  registry = await startRegistry();
  const spec = `oci+http://127.0.0.1:${registry.port}/bench/fleet`;
  const t = performance.now();
  const target = new OciStore(spec);
  const m = await mirror({ source: store, trust, target });
  target.close();
  const mirrorMs = performance.now() - t;
  const rows = [
    await fleet('oci', () => new OciStore(spec), trust),
    await fleet('local', () => store, trust),
  ];
  console.log(`fleet: ${N} admissions, ${HOSTS} hosts, ${CONCURRENCY} in flight; index seq ${m.latest.seq}; mirror took ${fmt(mirrorMs)} (${m.pushed.blobs} blobs, ${m.pushed.indexes} indexes)`);
  console.log('store   admissions/s   p50        p99        max        | cold p50   cold p99   | warm p50   warm p99');
  for (const r of rows) {
    console.log(`${r.store.padEnd(7)} ${r.perSecond.toFixed(0).padStart(12)}   ${fmt(r.all.p50).padEnd(10)} ${fmt(r.all.p99).padEnd(10)} ${fmt(r.all.max).padEnd(10)} | ${fmt(r.cold.p50).padEnd(10)} ${fmt(r.cold.p99).padEnd(10)} | ${fmt(r.warm.p50).padEnd(10)} ${fmt(r.warm.p99)}`);
  }
  fs.mkdirSync(path.dirname(values.out), { recursive: true });
  fs.writeFileSync(values.out, `${JSON.stringify({ admissions: N, hosts: HOSTS, concurrency: CONCURRENCY, indexSeq: m.latest.seq, mirrorMs, node: process.version, cpus: os.cpus().length, rows }, null, 2)}\n`);
  console.log(`written to ${path.relative(process.cwd(), values.out)}`);
} finally {
  registry?.child.kill('SIGTERM');
  fs.rmSync(work, { recursive: true, force: true });
}
