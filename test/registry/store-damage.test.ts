/**
 * A local store whose layout was damaged is refused with a coded diagnostic
 * (RC7201) — never a hang, never an internal error: audit.log that is a FIFO
 * or a directory, index/ or tmp/ that is a file, a directory inside tmp/.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admit } from '../../src/registry/admit.js';
import { RegistryError } from '../../src/registry/errors.js';
import * as ops from '../../src/registry/ops.js';
import { LocalStore } from '../../src/registry/stores/local.js';
import { verifyRegistry } from '../../src/registry/verify.js';
import { mintBundle, REPO_ROOT, setup, type Setup } from './helpers.js';

let s: Setup;
let next: ReturnType<typeof mintBundle>;

beforeAll(async () => {
  s = setup('rulec-damage-');
  const [first, second] = [mintBundle(s.dir, '1.0.0', 10), mintBundle(s.dir, '1.1.0', 11)];
  next = mintBundle(s.dir, '1.2.0', 12);
  const w = s.writer();
  await ops.publish(w, first.dir);
  await ops.startCanary(w, { ref: first.digest, bps: 1000, salt: 'r1' });
  await ops.promote(w);
  await ops.publish(w, second.dir);
  // The latest index, seq 5: what every writer and admission reads.
  await ops.startCanary(w, { ref: second.digest, bps: 3000, salt: 'r5' });
});
afterAll(() => rmSync(s.dir, { recursive: true, force: true }));

/** A copy of the store, damaged by `damage(storeDir)`, with a fresh admitter state. */
function damaged(damage: (store: string) => void): Setup {
  const copy = mkdtempSync(join(s.dir, 'copy-'));
  const storeDir = join(copy, 'store');
  cpSync(s.storeDir, storeDir, { recursive: true });
  damage(storeDir);
  const store = new LocalStore(storeDir);
  const stateDir = join(copy, 'admit');
  return {
    ...s, storeDir, stateDir, store,
    writer: (keys = [s.alice], extra = {}) => ({ store, trust: s.trust, keys: keys.map((k) => k.key), actor: 'test', ...extra }),
    admitter: (extra = {}) => ({ store, trust: s.trust, stateDir, ...extra }),
  };
}

/** The codes a registry call ends in: its refusal's, or the findings it returns (verify). */
async function codesOf(p: Promise<unknown>): Promise<string[]> {
  try {
    const r = await p;
    return (r as { diagnostics?: { code: string }[] }).diagnostics?.map((d) => d.code) ?? [];
  } catch (e) {
    if (e instanceof RegistryError) return [e.code];
    throw e;
  }
}

describe('a damaged store layout is refused (RC7201)', () => {
  // Spawned: before the fix, opening the FIFO blocked the process for good (and a hung verify held the writers' lock).
  it('audit.log replaced by a FIFO: verify, log and a writer end at once', () => {
    const t = damaged((d) => {
      unlinkSync(join(d, 'audit.log'));
      spawnSync('mkfifo', [join(d, 'audit.log')]);
    });
    const bin = join(REPO_ROOT, 'dist', 'cli', 'bin.js');
    for (const args of [['verify'], ['log'], ['ramp', '--bps', '5000', '--key', s.alice.path]]) {
      const r = spawnSync(process.execPath, [bin, 'registry', ...args, '--store', t.storeDir, '--trust', s.trustFile], { encoding: 'utf8', timeout: 20_000, env: { ...process.env, NO_COLOR: '1' } });
      expect({ args, signal: r.signal, status: r.status }).toEqual({ args, signal: null, status: 1 });
      expect(r.stderr + r.stdout).toContain('RC7201');
    }
  });

  it.each<[string, (d: string) => void]>([
    ['audit.log replaced by a directory', (d) => { unlinkSync(join(d, 'audit.log')); mkdirSync(join(d, 'audit.log')); }],
    ['index/ replaced by a file', (d) => { rmSync(join(d, 'index'), { recursive: true }); writeFileSync(join(d, 'index'), ''); }],
    ['tmp/ replaced by a file', (d) => { rmSync(join(d, 'tmp'), { recursive: true }); writeFileSync(join(d, 'tmp'), ''); }],
  ])('%s: verify and every writer', async (_name, damage) => {
    const t = damaged(damage);
    expect(await codesOf(verifyRegistry(t.store, t.trust))).toEqual(['RC7201']);
    expect(await codesOf(ops.ramp(t.writer(), { bps: 5000 }))).toEqual(['RC7201']);
    expect(await codesOf(ops.publish(t.writer(), next.dir))).toEqual(['RC7201']);
  });

  it('index/ replaced by a file: an admission too', async () => {
    const t = damaged((d) => { rmSync(join(d, 'index'), { recursive: true }); writeFileSync(join(d, 'index'), ''); });
    expect(await codesOf(admit(t.admitter()))).toEqual(['RC7201']);
  });

  it('a directory inside tmp/ is not a temp file to remove: verify refuses the store', async () => {
    const t = damaged((d) => mkdirSync(join(d, 'tmp', '99999999-abc')));
    expect(await codesOf(verifyRegistry(t.store, t.trust))).toEqual(['RC7201']);
  });

  it('a missing tmp/ is made again: it holds nothing of the registry', async () => {
    const t = damaged((d) => rmSync(join(d, 'tmp'), { recursive: true }));
    expect(await codesOf(ops.ramp(t.writer(), { bps: 5000 }))).toEqual([]);
    expect(await codesOf(verifyRegistry(t.store, t.trust))).toEqual([]);
  });
});
