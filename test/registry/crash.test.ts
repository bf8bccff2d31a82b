/**
 * Crash test: `rulec registry publish|promote|revoke` killed with SIGKILL at
 * every durable step (RULEC_TEST_CRASH_AT=N kills the process at its Nth
 * step) and at random times during the operation: ≥ 100 runs in all with
 * RULEC_STRESS=1, by default every step once and a few random kills. After
 * each kill, `registry verify` accepts the store (repairing what the crash
 * left), the store holds exactly the state before or after the operation,
 * and the operation can be run again to completion.
 * Needs dist/ (npm run build): the children run the built CLI module.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registryCommand } from '../../src/cli/commands/registry/index.js';
import { latestChecked } from '../../src/registry/writer.js';
import * as ops from '../../src/registry/ops.js';
import { LocalStore } from '../../src/registry/stores/local.js';
import { verifyRegistry } from '../../src/registry/verify.js';
import { canonicalJson } from '../../src/util/canonical-json.js';
import { mintBundle, setup, STRESS, type Setup } from './helpers.js';

const SCRIPT = join(import.meta.dirname, 'scripts', 'cli-op.mjs');
/** The issue asks for at least this many killed runs: RULEC_STRESS=1 runs them. */
const KILLED_RUNS = STRESS ? 100 : 0;
/** Random-time kills at least (each a process start, ~0.5 s): the deterministic kills cover every step already. */
const RANDOM_KILLS = STRESS ? 0 : 6;
/**
 * How random-time kills are shared. A publish child compiles the manifest
 * schema before its first durable step (four times the start-up of the
 * others), and its every step is already covered by the deterministic kills.
 */
const RANDOM_SHARE: Record<Case['name'], number> = { publish: 1, promote: 8, revoke: 8 };

interface Case {
  name: 'publish' | 'promote' | 'revoke';
  template: string;
  argv: string[];
  pre: { seq: number; state: string };
  post: { seq: number; state: string };
}

let s: Setup;
let scratch: string;
const cases: Case[] = [];
let runs = 0;

async function snapshot(store: LocalStore): Promise<{ seq: number; state: string }> {
  const { point } = await latestChecked(store, s.trust);
  return { seq: point.seq, state: canonicalJson(point.state) };
}

function common(storeDir: string): string[] {
  return ['--store', storeDir, '--trust', s.trustFile, '--key', s.alice.path, '--actor', 'crash-test'];
}

async function runInProcess(argv: string[]): Promise<number> {
  let out = '';
  const code = await registryCommand(argv, { out: (t) => { out += t; }, err: (t) => { out += t; }, cwd: s.dir });
  if (code !== 0) throw new Error(`rulec registry ${argv[0]} failed (${code}): ${out}`);
  return code;
}

interface ChildResult { code: number | null; signal: NodeJS.Signals | null; stderr: string; opMs: number }

function runChild(argv: string[], env: Record<string, string>, killAfterMs?: number): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SCRIPT, ...argv], { cwd: s.dir, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    let goAt = 0;
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (goAt === 0 && stderr.includes('go\n')) {
        goAt = performance.now();
        if (killAfterMs !== undefined) setTimeout(() => child.kill('SIGKILL'), killAfterMs);
      }
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stderr, opMs: goAt ? performance.now() - goAt : 0 }));
  });
}

/** After a kill: verify accepts, the state is before or after, and the operation completes when run again. */
async function checkAfterCrash(c: Case, storeDir: string, what: string): Promise<'before' | 'after'> {
  const store = new LocalStore(storeDir);
  const report = await verifyRegistry(store, s.trust);
  expect(report.diagnostics.filter((d) => d.severity === 'error'), `${what}: verify`).toEqual([]);
  const now = await snapshot(store);
  const where: 'before' | 'after' | 'between' = now.seq === c.pre.seq && now.state === c.pre.state ? 'before' : now.seq === c.post.seq && now.state === c.post.state ? 'after' : 'between';
  expect(where, `${what}: state after the kill`).not.toBe('between');
  if (where === 'before') await runInProcess([...c.argv, ...common(storeDir)]);
  expect(await snapshot(store), `${what}: state after completing`).toEqual(c.post);
  expect((await verifyRegistry(store, s.trust)).diagnostics, `${what}: verify after completing`).toEqual([]);
  return where === 'before' ? 'before' : 'after';
}

function freshCopy(c: Case): string {
  const dir = mkdtempSync(join(scratch, `${c.name}-`));
  cpSync(c.template, join(dir, 'store'), { recursive: true });
  return join(dir, 'store');
}

beforeAll(async () => {
  s = setup('rulec-crash-');
  scratch = mkdtempSync(join(s.dir, 'runs-'));
  const [a, b] = [mintBundle(s.dir, '1.0.0', 1), mintBundle(s.dir, '1.1.0', 2)];
  const w = s.writer();
  await ops.publish(w, a.dir);
  await ops.startCanary(w, { ref: a.digest, bps: 100 });
  await ops.promote(w);
  const templates = join(s.dir, 'templates');
  const save = (name: string): string => { const d = join(templates, name); cpSync(s.storeDir, d, { recursive: true }); return d; };
  const plan: [Case['name'], string[]][] = [];
  plan.push(['publish', ['publish', b.dir]]);
  const prePublish = save('publish');
  await ops.publish(w, b.dir);
  await ops.startCanary(w, { ref: b.digest, bps: 2500 });
  plan.push(['promote', ['promote']]);
  const prePromote = save('promote');
  await ops.promote(w);
  plan.push(['revoke', ['revoke', b.digest, '--severity', 'halt', '--reason', 'incident']]);
  const preRevoke = save('revoke');
  for (const [[name, argv], template] of plan.map((p, i) => [p, [prePublish, prePromote, preRevoke][i] as string] as const)) {
    const pre = await snapshot(new LocalStore(template));
    const done = freshCopy({ name, template } as Case);
    await runInProcess([...argv, ...common(done)]);
    cases.push({ name, template, argv, pre, post: await snapshot(new LocalStore(done)) });
  }
}, 120_000);

afterAll(() => {
  rmSync(s.dir, { recursive: true, force: true });
});

/** Run `tasks` two at a time (the machine has two cores). */
async function pool<T>(tasks: (() => Promise<T>)[], width = 2): Promise<T[]> {
  const out: T[] = [];
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < tasks.length) {
      const i = next++;
      out[i] = await (tasks[i] as () => Promise<T>)();
    }
  }));
  return out;
}

describe('SIGKILL during publish, promote and revoke', () => {
  const opMs = new Map<string, number>();

  it('at every durable step, the store is before or after the operation', async () => {
    for (const c of cases) {
      // A traced run without a kill counts the operation's durable steps and times it.
      const traced = await runChild([...c.argv, ...common(freshCopy(c))], { RULEC_TEST_CRASH_TRACE: '1' });
      expect(traced.code, `${c.name}: ${traced.stderr}`).toBe(0);
      const steps = traced.stderr.split('\n').filter((l) => l.startsWith('crash-point ')).map((l) => l.split(' ').slice(2).join(' '));
      expect(steps.length, c.name).toBeGreaterThan(3);
      expect(steps).toContain(`index ${c.post.seq}: linked`);
      opMs.set(c.name, traced.opMs);
      const where = await pool(steps.map((label, i) => async () => {
        const storeDir = freshCopy(c);
        const r = await runChild([...c.argv, ...common(storeDir)], { RULEC_TEST_CRASH_AT: String(i + 1) });
        expect(r.signal, `${c.name} at step ${i + 1} (${label}) was not killed: ${r.stderr}`).toBe('SIGKILL');
        const at = await checkAfterCrash(c, storeDir, `${c.name} killed at step ${i + 1} (${label})`);
        // The operation commits exactly when its index file is linked.
        expect(at, `${c.name} killed at step ${i + 1} (${label})`).toBe(i + 1 < steps.indexOf(`index ${c.post.seq}: linked`) + 1 ? 'before' : 'after');
        return at;
      }));
      runs += where.length;
    }
  }, 300_000);

  it('at random times during the operation, the store is before or after it', async () => {
    // Runs until KILLED_RUNS kills in all, RANDOM_KILLS of them here, and kills on both sides of
    // the commit point (a run that finishes before its kill does not count).
    const order = cases.flatMap((c) => Array.from({ length: RANDOM_SHARE[c.name] }, () => c));
    const seen = new Set<string>();
    let started = 0;
    let random = 0;
    await pool([0, 1].map(() => async () => {
      while (runs < KILLED_RUNS || random < RANDOM_KILLS || seen.size < 2) {
        expect(started, 'too many random runs finished before their kill').toBeLessThan(300);
        const c = order[started++ % order.length] as Case;
        const storeDir = freshCopy(c);
        // Every other run in the operation's last stretch, where the commit point is: drawn from the
        // whole span only, a kill after the commit is rare, and waiting for one made this test's
        // time vary from 8 s to 20 s.
        const span = opMs.get(c.name) ?? 50;
        const delay = started % 2 === 0 ? Math.random() * span * 0.8 : span * (0.55 + Math.random() * 0.5);
        const r = await runChild([...c.argv, ...common(storeDir)], {}, delay);
        if (r.signal === null) expect(r.code, `${c.name}: ${r.stderr}`).toBe(0);
        const at = await checkAfterCrash(c, storeDir, `${c.name} killed after ${delay.toFixed(1)} ms`);
        if (r.signal === 'SIGKILL') {
          runs += 1;
          random += 1;
          seen.add(at);
        }
      }
    }));
    expect(runs).toBeGreaterThanOrEqual(KILLED_RUNS);
    // The random kills land on both sides of the commit point.
    expect([...seen].sort()).toEqual(['after', 'before']);
  }, 300_000);
});
