/**
 * Concurrency: 8 processes × 50 random operations on one local store. No lost
 * update (every operation reported as committed is in the index chain and the
 * audit log exactly once, under the seq it was given), no duplicate sequence
 * number, and the whole chain still verifies (each index follows from the one
 * before). Needs dist/ (npm run build).
 */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAudit } from '../../src/registry/audit.js';
import { verifyRegistry } from '../../src/registry/verify.js';
import { mintBundle, setup } from './helpers.js';

const SCRIPT = join(import.meta.dirname, 'scripts', 'worker-ops.mjs');
const PROCESSES = 8;
const OPERATIONS = 50;
const s = setup('rulec-conc-');
const children: ReturnType<typeof spawn>[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(s.dir, { recursive: true, force: true });
});

interface Result { actor: string; op: string; ok: boolean; seq?: number; code?: string }

function worker(id: number, bundlesJson: string): { ready: Promise<void>; done: Promise<Result[]> } {
  const child = spawn(process.execPath, [SCRIPT, s.storeDir, s.trustFile, s.alice.path, bundlesJson, String(id), String(OPERATIONS), String(id * 7919 + 1), join(s.dir, 'go')], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  let err = '';
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((r) => { markReady = r; });
  child.stdout.on('data', (d: Buffer) => { out += d.toString(); if (out.startsWith('ready\n')) markReady(); });
  child.stderr.on('data', (d: Buffer) => { err += d.toString(); });
  const done = new Promise<Result[]>((resolve, reject) => child.on('close', (code) => {
    if (code !== 0) reject(new Error(`worker ${id} exited ${code}: ${err}`));
    else resolve(out.split('\n').slice(1).filter((l) => l !== '').map((l) => JSON.parse(l) as Result));
  }));
  return { ready, done };
}

describe(`${PROCESSES} processes × ${OPERATIONS} operations on one store`, () => {
  it('lose no update and never reuse a sequence number', async () => {
    const bundles = Array.from({ length: 60 }, (_, i) => mintBundle(s.dir, `1.${i}.0`, i)).map((b) => ({ dir: b.dir, digest: b.digest, version: b.manifest.revision.version }));
    const bundlesJson = join(s.dir, 'bundles.json');
    writeFileSync(bundlesJson, JSON.stringify(bundles));
    const workers = Array.from({ length: PROCESSES }, (_, i) => worker(i, bundlesJson));
    await Promise.all(workers.map((w) => w.ready));
    writeFileSync(join(s.dir, 'go'), '');
    const results = (await Promise.all(workers.map((w) => w.done))).flat();

    expect(results).toHaveLength(PROCESSES * OPERATIONS);
    const committed = results.filter((r) => r.ok);
    const refusedCodes = new Set(results.filter((r) => !r.ok).map((r) => r.code));
    expect([...refusedCodes].every((c) => /^RC71\d\d$|^RC7209$/.test(c ?? '')), [...refusedCodes].join()).toBe(true);
    const seqs = committed.map((r) => r.seq as number).sort((a, b) => a - b);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
    expect(committed.length).toBeGreaterThan(PROCESSES * OPERATIONS * 0.2);
    expect(new Set(committed.map((r) => r.op))).toEqual(new Set(['publish', 'canary', 'ramp', 'promote', 'abort', 'rollback', 'revoke']));

    const report = await verifyRegistry(s.store, s.trust);
    expect(report.diagnostics).toEqual([]);
    expect(report.latest?.seq).toBe(seqs.length);
    const log = parseAudit(readFileSync(join(s.storeDir, 'audit.log')));
    const logged = log.lines.flatMap((l) => (l.entry.kind === 'op' ? [`${l.entry.op.actor}@${l.entry.seq}:${l.entry.op.op}`] : []));
    expect(logged.sort()).toEqual(committed.map((r) => `${r.actor}@${r.seq}:${r.op}`).sort());
  }, 300_000);
});
