/**
 * Authentication to an OCI registry, per the distribution spec, against the
 * real registry: Basic (htpasswd), and the Bearer token dance (a 401 names a
 * token realm; the client asks it for a token with its credentials and
 * retries) with a token service this test runs (ES256 JWTs, trusted by the
 * registry through its rootcertbundle). Wrong or missing credentials are
 * RC7611. Also HTTPS to a registry with its own CA, and TLS off refused for
 * a non-loopback host (RC7613).
 */
import { execFileSync } from 'node:child_process';
import { createHash, createPrivateKey, createPublicKey, randomBytes, sign } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admit } from '../../src/registry/admit.js';
import { mirror } from '../../src/registry/mirror.js';
import * as ops from '../../src/registry/ops.js';
import { challengeParams } from '../../src/registry/remote/oci-client.js';
import { parseOciRef } from '../../src/registry/remote/oci-ref.js';
import { OciStore, type OciOptions } from '../../src/registry/stores/oci.js';
import { codeOf, mintBundle, setup, type Setup } from './helpers.js';
import { REGISTRY_MISSING, startRegistry, type RunningRegistry } from './oci-registry.js';

const USER = { username: 'publisher', password: 's3cret-pass' };
/** bcrypt (cost 4) of USER.password: the registry's htpasswd only reads bcrypt. */
const HTPASSWD = 'publisher:$2b$04$yLbhUvHBhUBQtxvxeCI9iOSOFVQeIDbWn7uI6Ajs8GcfIhcY2BZjO\n';

let OPENSSL: string | null = null;
try {
  execFileSync('openssl', ['version'], { stdio: 'ignore' });
  OPENSSL = 'openssl';
} catch {
  console.warn('SKIP: openssl is not installed, so the token and TLS tests cannot make a certificate');
}

const dir = mkdtempSync(join(tmpdir(), 'rulec-oci-auth-'));
let s: Setup;
const stores: OciStore[] = [];
afterAll(() => {
  for (const st of stores) st.close();
  rmSync(dir, { recursive: true, force: true });
  if (s) rmSync(s.dir, { recursive: true, force: true });
});

beforeAll(async () => {
  s = setup('rulec-oci-auth-reg-');
  const b = mintBundle(s.dir, '1.0.0', 1);
  await ops.publish(s.writer(), b.dir);
  await ops.startCanary(s.writer(), { ref: b.digest, bps: 10000 });
  await ops.promote(s.writer());
});

function oci(spec: string, o: OciOptions): OciStore {
  const st = new OciStore(spec, o);
  stores.push(st);
  return st;
}

/** Mirror as the publisher, then admit with `reader` credentials; the code of each step. */
async function roundTrip(spec: (repo: string) => string, repo: string, publisher: OciOptions, reader: OciOptions): Promise<[string, string]> {
  const pushed = await codeOf(mirror({ source: s.store, trust: s.trust, target: oci(spec(repo), publisher) }));
  const admitted = await codeOf(admit({ store: oci(spec(repo), reader), trust: s.trust, stateDir: mkdtempSync(join(dir, 'admit-')), requireFresh: true }, {}));
  return [pushed, admitted];
}

/** An EC P-256 key and a self-signed certificate for 127.0.0.1. */
function certificate(name: string): { cert: string; key: string } {
  const cert = join(dir, `${name}.crt`);
  const key = join(dir, `${name}.key`);
  execFileSync(OPENSSL as string, ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', key, '-out', cert, '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
  return { cert, key };
}

describe.skipIf(REGISTRY_MISSING !== null)('Basic authentication (htpasswd)', () => {
  let reg: RunningRegistry;
  beforeAll(async () => {
    writeFileSync(join(dir, 'htpasswd'), HTPASSWD);
    reg = await startRegistry({ auth: ['auth:', '  htpasswd:', '    realm: rulec-test', `    path: ${join(dir, 'htpasswd')}`].join('\n') });
  });
  afterAll(() => reg?.stop());

  it('mirrors and admits with the right password; refuses anonymous access and a wrong password (RC7611)', async () => {
    expect(await roundTrip(reg.spec, 'basic/a', { credentials: USER }, { credentials: USER })).toEqual(['accepted', 'accepted']);
    expect(await roundTrip(reg.spec, 'basic/b', { credentials: null }, { credentials: null })).toEqual(['RC7611', 'RC7611']);
    expect(await roundTrip(reg.spec, 'basic/a', { credentials: { ...USER, password: 'wrong' } }, { credentials: { ...USER, password: 'wrong' } })).toEqual(['RC7611', 'RC7611']);
  });
});

/** libtrust's key id (what the registry looks a token's `kid` up by): base32 of sha256(SPKI DER)[0..30], in groups of 4. */
function libtrustKeyId(publicKeyDer: Buffer): string {
  const bytes = createHash('sha256').update(publicKeyDer).digest().subarray(0, 30);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const b of bytes) bits += b.toString(2).padStart(8, '0');
  const chars = (bits.match(/.{5}/g) ?? []).map((c) => alphabet[parseInt(c, 2)]).join('');
  return (chars.match(/.{4}/g) ?? []).join(':');
}

describe.skipIf(REGISTRY_MISSING !== null || OPENSSL === null)('Bearer tokens (the WWW-Authenticate token dance)', () => {
  let reg: RunningRegistry;
  let tokens: http.Server;
  const asked: { user: string | null; scope: string | null }[] = [];

  beforeAll(async () => {
    const { cert, key } = certificate('token-signer');
    const signer = createPrivateKey(readFileSync(key));
    const kid = libtrustKeyId(createPublicKey(signer).export({ type: 'spki', format: 'der' }));
    const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');
    tokens = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const auth = req.headers.authorization ?? '';
      const [user, pass] = auth.startsWith('Basic ') ? Buffer.from(auth.slice(6), 'base64').toString().split(':') : [null, null];
      asked.push({ user: user ?? null, scope: url.searchParams.get('scope') });
      if (user !== USER.username || pass !== USER.password) return void res.writeHead(401).end('{"details":"bad credentials"}');
      const [, name, actions] = /^repository:([^:]+):(.+)$/.exec(url.searchParams.get('scope') ?? '') ?? [];
      const now = Math.floor(Date.now() / 1000);
      const claims = { iss: 'rulec-test-issuer', sub: user, aud: url.searchParams.get('service'), exp: now + 300, nbf: now - 10, iat: now, jti: randomBytes(8).toString('hex'), access: name ? [{ type: 'repository', name, actions: (actions ?? '').split(',') }] : [] };
      const input = `${b64({ alg: 'ES256', typ: 'JWT', kid })}.${b64(claims)}`;
      const signature = sign('sha256', Buffer.from(input), { key: signer, dsaEncoding: 'ieee-p1363' }).toString('base64url');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ token: `${input}.${signature}`, expires_in: 300 }));
    });
    await new Promise<void>((r) => tokens.listen(0, '127.0.0.1', () => r()));
    const port = (tokens.address() as AddressInfo).port;
    reg = await startRegistry({ auth: ['auth:', '  token:', `    realm: http://127.0.0.1:${port}/token`, '    service: rulec-test', '    issuer: rulec-test-issuer', `    rootcertbundle: ${cert}`].join('\n') });
  });
  afterAll(async () => {
    await reg?.stop();
    await new Promise<void>((r) => tokens.close(() => r()));
  });

  it('earns a token from the realm with the credentials, for the scope it needs, and uses it', async () => {
    expect(await roundTrip(reg.spec, 'token/a', { credentials: USER }, { credentials: USER })).toEqual(['accepted', 'accepted']);
    expect(asked.filter((a) => a.user === USER.username).map((a) => a.scope)).toEqual(expect.arrayContaining(['repository:token/a:pull,push', 'repository:token/a:pull']));
  });

  it('refuses when the token service refuses the credentials (RC7611)', async () => {
    expect(await roundTrip(reg.spec, 'token/b', { credentials: { ...USER, password: 'wrong' } }, { credentials: null })).toEqual(['RC7611', 'RC7611']);
  });

  it('reads the challenge parameters of the spec', () => {
    expect({ ...challengeParams('Bearer realm="https://auth.example/token",service="registry.example",scope="repository:a/b:pull"') })
      .toEqual({ realm: 'https://auth.example/token', service: 'registry.example', scope: 'repository:a/b:pull' });
  });
});

describe('TLS', () => {
  it('is off only for a loopback host: oci+http:// elsewhere is refused before any request (RC7613)', () => {
    for (const host of ['registry.example.com', '10.0.0.5', '[2001:db8::1]', '127.example.com']) {
      expect(() => parseOciRef(`oci+http://${host}/acme/rules`)).toThrow(expect.objectContaining({ code: 'RC7613' }));
    }
    for (const host of ['127.0.0.1:5000', 'localhost:5000', '[::1]:5000', '127.1.2.3']) expect(parseOciRef(`oci+http://${host}/acme/rules`).protocol).toBe('http:');
    expect(parseOciRef('oci://ghcr.io/acme/rules').protocol).toBe('https:');
  });

  it.skipIf(REGISTRY_MISSING !== null || OPENSSL === null)('speaks HTTPS to a registry whose CA it is given, and refuses one it cannot verify (RC7610)', async () => {
    const tls = certificate('registry-tls');
    const reg = await startRegistry({ tls });
    try {
      const ca = readFileSync(tls.cert);
      expect(reg.spec('tls/a').startsWith('oci://')).toBe(true);
      expect(await roundTrip(reg.spec, 'tls/a', { ca }, { ca })).toEqual(['accepted', 'accepted']);
      expect(await roundTrip(reg.spec, 'tls/b', {}, {})).toEqual(['RC7610', 'RC7610']);
    } finally {
      await reg.stop();
    }
  });
});
