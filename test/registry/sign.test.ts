/** DSSE envelopes and the trust file: PAE, k-of-n thresholds, revoked, removed and retired keys. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkSignatures, envelopeBytes, pae, parseEnvelope, signEnvelope, PAYLOAD_TYPE } from '../../src/registry/sign.js';
import { parseTrust } from '../../src/registry/trust.js';
import { makeKey, policyOf, trustDoc } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'rulec-sign-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const [a, b, c] = ['a', 'b', 'c'].map((n) => makeKey(dir, n)) as [ReturnType<typeof makeKey>, ReturnType<typeof makeKey>, ReturnType<typeof makeKey>];
const payload = Buffer.from('{"x":1}');
const T = PAYLOAD_TYPE.index;

describe('DSSE', () => {
  it('PAE matches the DSSE specification', () => {
    expect(pae('http://example.com/HelloWorld', Buffer.from('hello world')).toString()).toBe('DSSEv1 29 http://example.com/HelloWorld 11 hello world');
  });

  it('envelopes are canonical and round-trip; signatures are sorted and deduplicated', () => {
    const env = signEnvelope(T, payload, [b.key, a.key, a.key]);
    expect(env.signatures.map((s) => s.keyid)).toEqual([a.key.keyid, b.key.keyid].sort());
    const parsed = parseEnvelope(envelopeBytes(env), T, 'x');
    expect(parsed.ok && parsed.payload.toString()).toBe('{"x":1}');
    expect(parseEnvelope(JSON.stringify(env, null, 1), T, 'x')).toMatchObject({ ok: false, diagnostic: { code: 'RC7307' } });
    expect(parseEnvelope(envelopeBytes(env), PAYLOAD_TYPE.manifest, 'x')).toMatchObject({ ok: false, diagnostic: { code: 'RC7307' } });
  });
});

describe('checkSignatures', () => {
  const trust = policyOf(trustDoc([a, b, c], { publish: { keys: [a] }, promote: { keys: [a, b, c], threshold: 2 }, revoke: { keys: [c] } }));

  it.each<[string, () => ReturnType<typeof signEnvelope>, string | null]>([
    ['2 of 3 promote keys', () => signEnvelope(T, payload, [a.key, b.key]), null],
    ['1 of the 2 required', () => signEnvelope(T, payload, [a.key]), 'RC7303'],
    ['the same key twice', () => ({ ...signEnvelope(T, payload, [a.key]), signatures: [...signEnvelope(T, payload, [a.key]).signatures, ...signEnvelope(T, payload, [a.key]).signatures] }), 'RC7303'],
    ['a changed payload', () => ({ ...signEnvelope(T, payload, [a.key, b.key]), payload: Buffer.from('{"x":2}').toString('base64') }), 'RC7302'],
    ['a forged signature', () => { const e = signEnvelope(T, payload, [a.key, b.key]); (e.signatures[0] as { sig: string }).sig = Buffer.alloc(64, 1).toString('base64'); return e; }, 'RC7302'],
  ])('%s', (_n, make, code) => {
    expect(checkSignatures(make(), trust, 'promote', 'x', 1)?.code ?? null).toBe(code);
  });

  it('a signature by a key outside the trust file (removed) does not count', () => {
    const stranger = makeKey(dir, 'stranger');
    const d = checkSignatures(signEnvelope(T, payload, [a.key, stranger.key]), trust, 'promote', 'x', 1);
    expect(d?.code).toBe('RC7305');
  });

  it('a revoked key never counts', () => {
    const revoked = policyOf(trustDoc([a, b, c], { publish: { keys: [a] }, promote: { keys: [a, b, c], threshold: 2 }, revoke: { keys: [c] } }, { revoked_keys: [b.key.keyid] }));
    expect(checkSignatures(signEnvelope(T, payload, [a.key, b.key]), revoked, 'promote', 'x', 1)?.code).toBe('RC7304');
    expect(checkSignatures(signEnvelope(T, payload, [a.key, c.key]), revoked, 'promote', 'x', 1)).toBeNull();
  });

  it('a retired key counts up to its last seq only', () => {
    const doc = trustDoc([a, b, c], { publish: { keys: [a] }, promote: { keys: [a, b], threshold: 1 }, revoke: { keys: [c] } });
    (doc.keys[b.key.keyid] as { retired_after_seq?: number }).retired_after_seq = 5;
    const t = policyOf(doc);
    const env = signEnvelope(T, payload, [b.key]);
    expect(checkSignatures(env, t, 'promote', 'x', 5)).toBeNull();
    expect(checkSignatures(env, t, 'promote', 'x', 6)?.code).toBe('RC7305');
  });

  it('a key of another role does not count', () => {
    expect(checkSignatures(signEnvelope(T, payload, [a.key, b.key]), trust, 'revoke', 'x', 1)?.code).toBe('RC7303');
  });
});

describe('parseTrust', () => {
  const good = trustDoc([a, b], { publish: { keys: [a] }, promote: { keys: [a, b], threshold: 2 }, revoke: { keys: [a] } });
  it.each<[string, (d: Record<string, any>) => void]>([
    ['a key id that is not its key\'s hash', (d) => { d.keys[a.key.keyid].public_key = b.publicKey; }],
    ['a threshold above the role\'s keys', (d) => { d.roles.promote.threshold = 3; }],
    ['a threshold of 0', (d) => { d.roles.publish.threshold = 0; }],
    ['a role naming an unknown key', (d) => { d.roles.revoke.keys = ['0'.repeat(64)]; }],
    ['an unknown role', (d) => { d.roles.admin = { keys: [], threshold: 1 }; }],
    ['a missing role', (d) => { delete d.roles.revoke; }],
    ['an unknown top-level key', (d) => { d.extra = 1; }],
    ['a wrong schema id', (d) => { d.schema = 'x'; }],
  ])('refuses %s (RC7301)', (_n, edit) => {
    const d = structuredClone(good) as Record<string, any>;
    edit(d);
    const r = parseTrust(JSON.stringify(d), 'trust.json');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.diagnostics.every((x) => x.code === 'RC7301' && x.file === 'trust.json')).toBe(true);
  });

  it('accepts a good file', () => {
    expect(parseTrust(JSON.stringify(good), 'trust.json').ok).toBe(true);
  });
});
