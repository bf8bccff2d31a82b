/**
 * The published registry schemas describe what rulec writes: every index
 * payload, audit line, pin and trust file of a real run validates; and the
 * schema and rulec's own readers refuse the same hostile edits.
 */
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseIndexDoc } from '../../src/registry/index-doc.js';
import { parsePin } from '../../src/registry/admitter-state.js';
import { admit } from '../../src/registry/admit.js';
import * as ops from '../../src/registry/ops.js';
import { parseTrust } from '../../src/registry/trust.js';
import { compileSchema } from '../../src/config/schema-check.js';
import { canonicalJson } from '../../src/util/canonical-json.js';
import { mintBundle, REPO_ROOT, setup, type Setup } from './helpers.js';

const schema = (name: string) => compileSchema(JSON.parse(readFileSync(join(REPO_ROOT, 'schemas', `registry-${name}.schema.json`), 'utf8')));
let s: Setup;
let payloads: Record<string, unknown>[];

beforeAll(async () => {
  s = setup('rulec-schemas-');
  const [a, b] = [mintBundle(s.dir, '3.0.0', 1), mintBundle(s.dir, '3.1.0', 2)];
  const w = s.writer();
  await ops.publish(w, a.dir);
  await ops.startCanary(w, { ref: a.digest, bps: 100 });
  await ops.ramp(w, { bps: 200 });
  await ops.promote(w);
  await ops.publish(w, b.dir);
  await ops.deprecate(w, { ref: b.digest });
  await ops.revoke(w, { ref: a.digest, severity: 'drain', reason: 'x' });
  payloads = readdirSync(join(s.storeDir, 'index')).sort().map((f) => JSON.parse(Buffer.from(JSON.parse(readFileSync(join(s.storeDir, 'index', f), 'utf8')).payload, 'base64').toString()));
});
afterAll(() => rmSync(s.dir, { recursive: true, force: true }));

describe('registry schemas', () => {
  it('every index payload validates against registry-index.schema.json', () => {
    const v = schema('index');
    expect(payloads.map((p) => p.op && (p.op as { op: string }).op)).toEqual(['publish', 'canary', 'ramp', 'promote', 'publish', 'deprecate', 'revoke']);
    for (const p of payloads) expect(v(p), JSON.stringify(v.errors)).toBe(true);
  });

  it('every audit line validates against registry-audit-entry.schema.json', () => {
    const v = schema('audit-entry');
    for (const line of readFileSync(join(s.storeDir, 'audit.log'), 'utf8').trim().split('\n')) expect(v(JSON.parse(line)), line).toBe(true);
  });

  it('the trust file and a pin validate', async () => {
    expect(schema('trust')(JSON.parse(readFileSync(s.trustFile, 'utf8')))).toBe(true);
    const t = setup('rulec-schemas-pin-');
    const m = mintBundle(t.dir, '1.0.0', 1);
    await ops.publish(t.writer(), m.dir);
    await ops.startCanary(t.writer(), { ref: m.digest, bps: 10000 });
    const a = await admit(t.admitter(), { run: 'pinned', subject: 'user:alice' });
    const pin = JSON.parse(readFileSync(join(t.stateDir, 'pins', 'pinned.json'), 'utf8'));
    expect(schema('pin')(pin), JSON.stringify(schema('pin').errors)).toBe(true);
    expect(parsePin(JSON.stringify(pin))).toEqual(a.pin);
    rmSync(t.dir, { recursive: true, force: true });
  });

  it.each<[string, (p: Record<string, any>) => void]>([
    ['an unknown top-level key', (p) => { p.extra = 1; }],
    ['a bad prev digest', (p) => { p.prev = 'sha256:xyz'; }],
    ['an operation with an unknown key', (p) => { p.op.extra = 1; }],
    ['an operation of the wrong type', (p) => { p.op.bps = '5'; }],
    ['an unknown operation', (p) => { p.op.op = 'delete'; }],
    ['a missing audit head', (p) => { delete p.audit.head; }],
  ])('the schema and parseIndexDoc both refuse %s', (_n, edit) => {
    const p = structuredClone(payloads[1]) as Record<string, any>;
    edit(p);
    expect(schema('index')(p)).toBe(false);
    expect(parseIndexDoc(canonicalJson(p), 'x').ok).toBe(false);
  });

  it('the schema and parseTrust both refuse a role without a threshold', () => {
    const t = JSON.parse(readFileSync(s.trustFile, 'utf8'));
    delete t.roles.revoke.threshold;
    expect(schema('trust')(t)).toBe(false);
    expect(parseTrust(JSON.stringify(t), 'x').ok).toBe(false);
  });
});
