/**
 * Concurrency: 8 processes × 50 random operations on one store (RULEC_STRESS=1;
 * 4 × 12 by default, see helpers.ts). No lost
 * update (every operation reported as committed is in the index chain and the
 * audit log exactly once, under the seq it was given), no duplicate sequence
 * number, and the whole chain still verifies (each index follows from the one
 * before). Run on the local store, and on the git store against a bare
 * repository from two "hosts" (two scratch caches, half the processes each): the
 * processes of a host take turns through its lock, the hosts race for the ref
 * and only the compare-and-swap on the push keeps them apart.
 * Needs dist/ (npm run build).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAudit } from '../../src/registry/audit.js';
import type { Store } from '../../src/registry/store.js';
import { GitStore } from '../../src/registry/stores/git.js';
import { verifyRegistry } from '../../src/registry/verify.js';
import { mintBundle, setup, STRESS } from './helpers.js';
import { bareRepository } from '../helpers/fixture-repo.js';
import { startTogether } from './start-together.js';

const SCRIPT = join(import.meta.dirname, 'scripts', 'worker-ops.mjs');
const PROCESSES = STRESS ? 8 : 4;
const OPERATIONS = STRESS ? 50 : 12;
const s = setup('rulec-conc-');
const children: ReturnType<typeof spawn>[] = [];
const opened: GitStore[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const g of opened) g.close();
  rmSync(s.dir, { recursive: true, force: true });
});

interface Result { actor: string; op: string; ok: boolean; seq?: number; code?: string; message?: string }

interface Kind {
  name: string;
  /** Refusals a worker may get: the state machine's (workers act on views others move on from), and for git a reported conflict. */
  refusals: RegExp;
  /** The store argument of the workers, the cache (host) of worker `id`, and the store to check afterwards. */
  make(): { spec: string; cacheOf(id: number): string; store: Store };
}

const KINDS: Kind[] = [
  { name: 'local', refusals: /^RC71\d\d$|^RC7209$/, make: () => ({ spec: s.storeDir, cacheOf: () => '', store: s.store }) },
  // A writer that lost the race to the other host casAttempts times reports RC7207: a conflict, never a lost update.
  { name: 'git', refusals: /^RC71\d\d$|^RC7209$|^RC7207$/, make: () => {
    const remote = join(s.dir, 'remote.git');
    bareRepository(remote);
    const store = new GitStore(`git+${remote}`, { cacheDir: join(s.dir, 'check-cache') });
    opened.push(store);
    return { spec: `git+${remote}`, cacheOf: (id) => join(s.dir, `host-${id % 2}`), store };
  } },
];

/** A racing worker process (it waits for startTogether) and the results it prints after its "ready" line. */
function worker(spec: string, cacheDir: string, id: number, bundlesJson: string): { child: ChildProcess; done: Promise<Result[]> } {
  const child = spawn(process.execPath, [SCRIPT, spec, s.trustFile, s.alice.path, bundlesJson, String(id), String(OPERATIONS), String(id * 7919 + 1), cacheDir], { stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
  child.stderr.on('data', (d: Buffer) => { err += d.toString(); });
  const done = new Promise<Result[]>((resolve, reject) => child.on('close', (code) => {
    if (code !== 0) reject(new Error(`worker ${id} exited ${code}: ${err}`));
    else resolve(out.split('\n').slice(1).filter((l) => l !== '').map((l) => JSON.parse(l) as Result));
  }));
  return { child, done };
}

let bundlesJson: string | undefined;
function bundles(): string {
  if (bundlesJson) return bundlesJson;
  const list = Array.from({ length: 60 }, (_, i) => mintBundle(s.dir, `1.${i}.0`, i)).map((b) => ({ dir: b.dir, digest: b.digest, version: b.manifest.revision.version }));
  bundlesJson = join(s.dir, 'bundles.json');
  writeFileSync(bundlesJson, JSON.stringify(list));
  return bundlesJson;
}

describe.each(KINDS)(`${PROCESSES} processes × ${OPERATIONS} operations on one $name store`, (kind) => {
  it('lose no update and never reuse a sequence number', async () => {
    const { spec, cacheOf, store } = kind.make();
    const workers = Array.from({ length: PROCESSES }, (_, i) => worker(spec, cacheOf(i), i, bundles()));
    await startTogether(workers.map((w) => w.child));
    const results = (await Promise.all(workers.map((w) => w.done))).flat();

    expect(results).toHaveLength(PROCESSES * OPERATIONS);
    const committed = results.filter((r) => r.ok);
    const unexpected = results.filter((r) => !r.ok && !kind.refusals.test(r.code ?? ''));
    expect(unexpected.map((r) => `${r.code}: ${r.message}`)).toEqual([]);
    const seqs = committed.map((r) => r.seq as number).sort((a, b) => a - b);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
    expect(committed.length).toBeGreaterThan(PROCESSES * OPERATIONS * 0.2);
    // The processes reach deep states, not only publish: every kind at full size; at the default size
    // (a rollback needs two promotions first) publish, canary and two kinds that act on a canary or a bundle.
    const kinds = new Set(committed.map((r) => r.op));
    if (STRESS) expect(kinds).toEqual(new Set(['publish', 'canary', 'ramp', 'promote', 'abort', 'rollback', 'revoke']));
    else {
      expect([kinds.has('publish'), kinds.has('canary')]).toEqual([true, true]);
      expect(kinds.size).toBeGreaterThanOrEqual(4);
    }

    const report = await verifyRegistry(store, s.trust);
    expect(report.diagnostics).toEqual([]);
    expect(report.latest?.seq).toBe(seqs.length);
    const log = parseAudit((await store.readAudit(0)).bytes);
    const logged = log.lines.flatMap((l) => (l.entry.kind === 'op' ? [`${l.entry.op.actor}@${l.entry.seq}:${l.entry.op.op}`] : []));
    expect(logged.sort()).toEqual(committed.map((r) => `${r.actor}@${r.seq}:${r.op}`).sort());
  }, 600_000);
});
