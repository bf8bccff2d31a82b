/**
 * The Store contract (src/registry/store.ts), run against every store
 * implementation. The git and OCI stores of the next issue join STORES.
 * The compare-and-swap race spawns processes (needs dist/: npm run build).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RegistryError } from '../../src/registry/errors.js';
import type { Store } from '../../src/registry/store.js';
import { LocalStore } from '../../src/registry/stores/local.js';
import { digestOf } from '../../src/util/hash.js';

const root = mkdtempSync(join(tmpdir(), 'rulec-store-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface StoreKind {
  name: string;
  make(): Store;
  /** argv for test/registry/scripts/cas-race.mjs to open the same store in another process, or null. */
  raceArgs(store: Store): string[] | null;
}

const STORES: StoreKind[] = [
  { name: 'local', make: () => new LocalStore(mkdtempSync(join(root, 'local-'))), raceArgs: (s) => [(s as LocalStore).root] },
];

const lines = (...l: string[]): string => l.map((x) => `${x}\n`).join('');

describe.each(STORES)('$name store', (kind) => {
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

  it('two processes never both win a compare-and-swap (8 processes race for 40 seqs each)', async () => {
    const s = kind.make();
    await s.init();
    const args = kind.raceArgs(s);
    if (args === null) return;
    const go = join(root, `go-${kind.name}-${Date.now()}`);
    const procs = Array.from({ length: 8 }, () => {
      const child = spawn(process.execPath, [join(import.meta.dirname, 'scripts', 'cas-race.mjs'), ...args, '40', go], { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      const ready = new Promise<void>((r) => child.stdout.on('data', (d: Buffer) => { out += d.toString(); if (out.startsWith('ready')) r(); }));
      const done = new Promise<[number, number][]>((resolve, reject) => child.on('close', (code) => {
        if (code !== 0) return reject(new Error(`race process exited ${code}`));
        const [pid, ...seqs] = (/won (.*)/.exec(out)?.[1] ?? '').split(' ').filter((x) => x !== '').map(Number);
        resolve(seqs.map((seq) => [seq, pid as number]));
      }));
      return { ready, done };
    });
    await Promise.all(procs.map((p) => p.ready));
    writeFileSync(go, '');
    const wins = (await Promise.all(procs.map((p) => p.done))).flat().sort((a, b) => a[0] - b[0]);
    const latest = await s.latestIndex();
    // Each seq won exactly once, by the process whose index it holds.
    expect(wins.map(([seq]) => seq)).toEqual(Array.from({ length: latest?.seq ?? 0 }, (_, i) => i + 1));
    for (const [seq, pid] of wins) expect((await s.indexAt(seq))?.toString()).toBe(`${pid}:${seq}`);
    expect(wins.length).toBeGreaterThanOrEqual(40);
  }, 120_000);
});
