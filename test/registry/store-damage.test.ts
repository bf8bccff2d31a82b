/**
 * A local store whose layout or documents were damaged is refused with a
 * coded diagnostic — never a hang, never an internal error: audit.log that is
 * a FIFO or a directory, index/ or tmp/ that is a file, a directory inside
 * tmp/ (RC7201), and a signed index or audit line holding a number canonical
 * JSON cannot hold (RC7204, RC7506, RC7410 for the admitter's checkpoint).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admit } from '../../src/registry/admit.js';
import { RegistryError } from '../../src/registry/errors.js';
import * as ops from '../../src/registry/ops.js';
import { envelopeBytes, signEnvelope, PAYLOAD_TYPE } from '../../src/registry/sign.js';
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

const LATEST = join('index', '000000000005.dsse.json');

/** The latest index with its payload text edited, signed again by `signed` (a trusted key) or keeping its old signature. */
function forgeIndex(store: string, from: string, to: string, signed: boolean): void {
  const env = JSON.parse(readFileSync(join(store, LATEST), 'utf8')) as { payload: string; payloadType: string; signatures: unknown[] };
  const text = Buffer.from(env.payload, 'base64').toString('utf8');
  expect(text).toContain(from);
  const payload = Buffer.from(text.replace(from, to));
  const forged = signed ? envelopeBytes(signEnvelope(PAYLOAD_TYPE.index, payload, [s.alice.key])) : JSON.stringify({ payload: payload.toString('base64'), payloadType: env.payloadType, signatures: env.signatures });
  unlinkSync(join(store, LATEST));
  writeFileSync(join(store, LATEST), forged);
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

describe('numbers canonical JSON cannot hold are an invalid document, not an internal error', () => {
  it.each([['"seq":5,', '"seq":5.5,'], ['"bps":3000', '"bps":1e20'], ['"bps":3000', '"bps":1e400']])('an index edited from %s to %s, signed again or not, is RC7204', async (from, to) => {
    for (const signed of [false, true]) {
      const t = damaged((d) => forgeIndex(d, from, to, signed));
      expect({ signed, codes: await codesOf(verifyRegistry(t.store, t.trust)) }).toEqual({ signed, codes: ['RC7204'] });
      expect({ signed, codes: await codesOf(admit(t.admitter())) }).toEqual({ signed, codes: ['RC7204'] });
      expect({ signed, codes: await codesOf(ops.ramp(t.writer(), { bps: 5000 })) }).toEqual({ signed, codes: ['RC7204'] });
    }
  });

  it('the admitter\'s trusted checkpoint holding such a number is an invalid admitter state (RC7410)', async () => {
    const t = damaged(() => undefined);
    await admit(t.admitter());
    const forged = damaged((d) => forgeIndex(d, '"bps":3000', '"bps":1e20', true));
    writeFileSync(join(t.stateDir, 'trusted.dsse.json'), readFileSync(join(forged.storeDir, LATEST)));
    expect(await codesOf(admit(t.admitter()))).toEqual(['RC7410']);
  });

  it('an audit line holding one is unreadable (RC7506)', async () => {
    const t = damaged((d) => writeFileSync(join(d, 'audit.log'), readFileSync(join(d, 'audit.log'), 'utf8').replace('"entry":1,', '"entry":1.5,')));
    expect(await codesOf(verifyRegistry(t.store, t.trust))).toEqual(['RC7506']);
  });
});
