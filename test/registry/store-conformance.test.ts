/**
 * The Store contract (src/registry/store.ts), run against every store:
 * - the write side against the stores publishers write to: the local
 *   directory and the git store (on a local bare repository);
 * - the read side against every store admitters read: local, git, and an OCI
 *   registry mirror (docker-registry on loopback; skipped with a message only
 *   when it is not installed): the same registry, built by the same
 *   operations, reads back the same from each, and admits the same.
 * The compare-and-swap race spawns processes (needs dist/: npm run build).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admit } from '../../src/registry/admit.js';
import { parseAudit } from '../../src/registry/audit.js';
import { RegistryError } from '../../src/registry/errors.js';
import { mirror } from '../../src/registry/mirror.js';
import * as ops from '../../src/registry/ops.js';
import type { Store } from '../../src/registry/store.js';
import { GitStore } from '../../src/registry/stores/git.js';
import { LocalStore } from '../../src/registry/stores/local.js';
import { OciStore } from '../../src/registry/stores/oci.js';
import { digestOf } from '../../src/util/hash.js';
import { mintBundle, setup, STRESS, type Setup } from './helpers.js';
import { REGISTRY_MISSING, startRegistry, type RunningRegistry } from './oci-registry.js';
import { bareRepository } from '../helpers/fixture-repo.js';
import { startTogether } from './start-together.js';

const root = mkdtempSync(join(tmpdir(), 'rulec-store-'));
const opened: { close?: () => void }[] = [];
afterAll(() => {
  for (const s of opened) s.close?.();
  rmSync(root, { recursive: true, force: true });
});

function bareRepo(): string {
  const dir = mkdtempSync(join(root, 'remote-'));
  return bareRepository(dir);
}

function gitStore(remote = bareRepo()): GitStore {
  const s = new GitStore(`git+${remote}`, { cacheDir: mkdtempSync(join(root, 'cache-')) });
  opened.push(s);
  return s;
}

interface StoreKind {
  name: string;
  make(): Store;
  /** argv for test/registry/scripts/cas-race.mjs to open the same store in other processes. */
  raceArgs(store: Store): string[];
  /** Rounds each racing process plays (a git round spawns git a few times). */
  rounds: number;
}

const WRITABLE: StoreKind[] = [
  { name: 'local', make: () => new LocalStore(mkdtempSync(join(root, 'local-'))), raceArgs: (s) => ['local', (s as LocalStore).root], rounds: 40 },
  { name: 'git', make: () => gitStore(), raceArgs: (s) => ['git', (s as GitStore).location, mkdtempSync(join(root, 'race-'))], rounds: STRESS ? 12 : 5 },
];

const lines = (...l: string[]): string => l.map((x) => `${x}\n`).join('');

describe.each(WRITABLE)('$name store (write side)', (kind) => {
  it('is created once; init is idempotent', async () => {
    const s = kind.make();
    expect(await s.exists()).toBe(false);
    await s.init();
    await s.init();
    expect(await s.exists()).toBe(true);
  });

  it('stores blobs by digest, idempotently', async () => {
    const s = kind.make();
    await s.init();
    const d = await s.putBlob(Buffer.from('hello'));
    expect(d).toBe(digestOf('hello'));
    expect(await s.putBlob(Buffer.from('hello'))).toBe(d);
    expect((await s.getBlob(d))?.toString()).toBe('hello');
    expect(await s.getBlob(digestOf('other'))).toBeNull();
  });

  it('commits index seq n+1 only over seq n, keeps every version, and carries its audit lines', async () => {
    const s = kind.make();
    await s.init();
    expect(await s.latestIndex()).toBeNull();
    expect(await s.casIndex(0, { bytes: 'one', audit: lines('a1'), auditAt: 0 })).toBe(true);
    expect(await s.casIndex(0, { bytes: 'other', audit: lines('x'), auditAt: 3 })).toBe(false);
    expect(await s.casIndex(5, { bytes: 'gap', audit: '', auditAt: 3 })).toBe(false);
    expect(await s.casIndex(1, { bytes: 'two', audit: lines('a2'), auditAt: 3 })).toBe(true);
    const head = await s.latestIndex();
    expect([head?.seq, head?.bytes.toString()]).toEqual([2, 'two']);
    expect((await s.indexAt(1))?.toString()).toBe('one');
    expect(await s.indexAt(3)).toBeNull();
    expect((await s.readAudit()).bytes.toString()).toBe(lines('a1', 'a2'));
    expect(await s.readAudit(3)).toEqual({ bytes: Buffer.from(lines('a2')), size: 6 });
  });

  it('appendAudit cuts a torn tail but never a complete line', async () => {
    const s = kind.make();
    await s.init();
    await s.appendAudit(0, `${lines('a1')}a2-torn`);
    await s.appendAudit(3, lines('a2'));
    expect((await s.readAudit()).bytes.toString()).toBe(lines('a1', 'a2'));
    await expect(s.appendAudit(3, lines('b'))).rejects.toBeInstanceOf(RegistryError);
    await expect(s.appendAudit(100, lines('b'))).rejects.toBeInstanceOf(RegistryError);
  });

  it('exclusive() runs writers one at a time', async () => {
    const s = kind.make();
    await s.init();
    const events: string[] = [];
    const job = (n: string) => s.exclusive(async () => {
      events.push(`start ${n}`);
      await new Promise((r) => setTimeout(r, 20));
      events.push(`end ${n}`);
    });
    await Promise.all([job('a'), job('b'), job('c')]);
    for (let i = 0; i < events.length; i += 2) expect(events[i + 1]?.replace('end', 'start')).toBe(events[i]);
  });

  it('sweep() finds nothing to remove in a clean store', async () => {
    const s = kind.make();
    await s.init();
    expect(await s.sweep()).toEqual([]);
  });

  it('two processes never both win a compare-and-swap (8 processes race for the next seq)', async () => {
    const s = kind.make();
    await s.init();
    const procs = Array.from({ length: 8 }, () => {
      const child = spawn(process.execPath, [join(import.meta.dirname, 'scripts', 'cas-race.mjs'), ...kind.raceArgs(s), String(kind.rounds)], { stdio: ['pipe', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
      const done = new Promise<[number, number][]>((resolve, reject) => child.on('close', (code) => {
        if (code !== 0) return reject(new Error(`race process exited ${code}`));
        const [pid, ...seqs] = (/won (.*)/.exec(out)?.[1] ?? '').split(' ').filter((x) => x !== '').map(Number);
        resolve(seqs.map((seq) => [seq, pid as number]));
      }));
      return { child, done };
    });
    await startTogether(procs.map((p) => p.child));
    const wins = (await Promise.all(procs.map((p) => p.done))).flat().sort((a, b) => a[0] - b[0]);
    const latest = await s.latestIndex();
    // Each seq won exactly once, by the process whose index it holds.
    expect(wins.map(([seq]) => seq)).toEqual(Array.from({ length: latest?.seq ?? 0 }, (_, i) => i + 1));
    for (const [seq, pid] of wins) expect((await s.indexAt(seq))?.toString()).toBe(`${pid}:${seq}`);
    expect(wins.length).toBeGreaterThanOrEqual(kind.rounds);
  }, 120_000);
});

// ---- the read side: one registry, built by the same operations, read from every store ----

interface Built {
  reader: Store;
  /** The source store the operations ran on (the reader itself, or what was mirrored). */
  source: Store;
  indexes: string[];
}

let reg: RunningRegistry | undefined;
let s: Setup;
let bundles: ReturnType<typeof mintBundle>[];
beforeAll(async () => {
  s = setup('rulec-store-read-');
  bundles = ['1.0.0', '1.1.0'].map((v, i) => mintBundle(s.dir, v, i + 1));
  if (!REGISTRY_MISSING) reg = await startRegistry();
});
afterAll(async () => {
  await reg?.stop();
  rmSync(s.dir, { recursive: true, force: true });
});

/** publish → canary → promote → publish → canary → refresh → revoke, on `store`; the committed index bytes. */
async function build(store: Store): Promise<string[]> {
  const w = s.writer([s.alice], { store });
  const [a, b] = bundles as [ReturnType<typeof mintBundle>, ReturnType<typeof mintBundle>];
  const outcomes = [
    await ops.publish(w, a.dir),
    await ops.startCanary(w, { ref: a.digest, bps: 10000 }),
    await ops.promote(w),
    await ops.publish(w, b.dir),
    await ops.startCanary(w, { ref: b.digest, bps: 5000, salt: 'r1' }),
    await ops.refresh(w),
  ];
  return outcomes.map((o) => o.index.bytes);
}

const READERS: { name: string; skip: string | null; build(): Promise<Built> }[] = [
  { name: 'local', skip: null, build: async () => {
    const store = new LocalStore(mkdtempSync(join(root, 'read-local-')));
    return { reader: store, source: store, indexes: await build(store) };
  } },
  { name: 'git', skip: null, build: async () => {
    const remote = bareRepo();
    const indexes = await build(gitStore(remote));
    const store = gitStore(remote);
    return { reader: store, source: store, indexes };
  } },
  { name: 'oci', skip: REGISTRY_MISSING, build: async () => {
    const source = new LocalStore(mkdtempSync(join(root, 'read-oci-src-')));
    const indexes = await build(source);
    const reader = new OciStore((reg as RunningRegistry).spec('conformance/read'));
    opened.push(reader);
    await mirror({ source, trust: s.trust, target: reader });
    return { reader, source, indexes };
  } },
];

describe.each(READERS)('$name store (read side)', (kind) => {
  let b: Built;
  beforeAll(async () => {
    if (!kind.skip) b = await kind.build();
  });

  it.skipIf(kind.skip !== null)('reads every signed index, the latest first, and nothing past it', async () => {
    expect(await b.reader.exists()).toBe(true);
    const head = await b.reader.latestIndex();
    expect([head?.seq, head?.bytes.toString()]).toEqual([b.indexes.length, b.indexes.at(-1)]);
    for (const [i, bytes] of b.indexes.entries()) expect((await b.reader.indexAt(i + 1))?.toString()).toBe(bytes);
    expect(await b.reader.indexAt(b.indexes.length + 1)).toBeNull();
  });

  it.skipIf(kind.skip !== null)('serves the blobs of every bundle it serves, by digest, and nothing else by that name', async () => {
    for (const m of bundles) {
      const manifest = await b.reader.getBlob(m.digest);
      expect(manifest && digestOf(manifest)).toBe(m.digest);
      for (const v of Object.values(m.manifest.variants)) expect(digestOf((await b.reader.getBlob(v.sha256)) ?? '')).toBe(v.sha256);
    }
    expect(await b.reader.getBlob(digestOf('never stored'))).toBeNull();
  });

  it.skipIf(kind.skip !== null)('reads the audit log whole and from an offset', async () => {
    const whole = await b.reader.readAudit(0);
    expect(whole.bytes.equals((await b.source.readAudit(0)).bytes)).toBe(true);
    expect(parseAudit(whole.bytes).lines.map((l) => l.entry.kind === 'op' && l.entry.op.op)).toEqual(['publish', 'canary', 'promote', 'publish', 'canary', 'refresh']);
    const tail = await b.reader.readAudit(10);
    expect([tail.size, tail.bytes.equals(whole.bytes.subarray(10))]).toEqual([whole.size, true]);
  });

  it.skipIf(kind.skip !== null)('admits a subject to the bundle the local store admits it to', async () => {
    for (const subject of ['repo:acme/api', 'repo:acme/web', 'user:alice']) {
      const got = await admit({ store: b.reader, trust: s.trust, stateDir: mkdtempSync(join(root, 'adm-')), requireFresh: true }, { subject });
      const want = await admit({ store: b.source, trust: s.trust, stateDir: mkdtempSync(join(root, 'adm-')) }, { subject });
      expect([got.pin.digest, got.index.seq]).toEqual([want.pin.digest, b.indexes.length]);
    }
  });
});

describe('oci store (writes)', () => {
  it('refuses every write and exclusive(): a mirror is read only (RC7614), before any request', async () => {
    const oci = new OciStore('oci+http://127.0.0.1:9/never/contacted');
    opened.push(oci);
    const reader: Store = oci; // called as a writer would: through the Store interface
    const writes = [reader.init(), reader.putBlob(Buffer.from('x')), reader.casIndex(6, { bytes: 'x', audit: '', auditAt: 0 }), reader.appendAudit(0, ''), reader.exclusive(async () => 1)];
    for (const write of writes) await expect(write).rejects.toMatchObject({ code: 'RC7614' });
  });
});
