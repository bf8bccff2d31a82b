/**
 * A small client of the OCI distribution API (what GHCR, ECR, Harbor,
 * Artifactory and Docker's registry speak), for rulec's mirror: manifests by
 * tag or digest, blobs by digest, monolithic blob uploads.
 *
 * Auth (distribution spec): every request goes out anonymously or with the
 * token already earned for its scope. A 401 names a challenge in
 * WWW-Authenticate: `Basic` → retry with the configured user and password;
 * `Bearer realm=…,service=…,scope=…` → ask the realm for a token (with the
 * user and password when configured, anonymously otherwise), cache it for its
 * lifetime, retry with it. A second 401, or a 403, is RC7611.
 *
 * Every response is size-limited and time-limited (http-limited.ts); a blob is
 * hashed while it streams and refused when it is not the digest asked for
 * (RC7702). Redirects (blob storage behind a CDN) are followed up to five
 * times, without the registry's credentials when the host changes.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { registryError } from '../errors.js';
import { httpRequest, type HttpRequest, type HttpResponse } from './http-limited.js';
import { parseOciRef, type OciRef } from './oci-ref.js';

export const MANIFEST_MEDIA_TYPE = 'application/vnd.oci.image.manifest.v1+json';

export interface OciCredentials {
  username: string;
  password: string;
}

export interface OciOptions {
  /** Basic credentials (default: $RULEC_OCI_USERNAME and $RULEC_OCI_PASSWORD); anonymous without. */
  credentials?: OciCredentials | null;
  /** Extra CA certificates (PEM) for HTTPS; NODE_EXTRA_CA_CERTS works too. */
  ca?: string | Buffer;
  /** Size limits: a blob (default 64 MiB), a manifest or token response (default 4 MiB). */
  maxBlobBytes?: number;
  maxManifestBytes?: number;
  /** Longest silence of a server (default 30 s), and longest request (default 120 s). */
  timeoutMs?: number;
  deadlineMs?: number;
}

type Method = HttpRequest['method'];

interface Attempt {
  method: Method;
  path: string;
  headers?: Record<string, string>;
  body?: Buffer;
  maxBytes: number;
  what: string;
  /** Statuses that are answers, not failures. */
  ok: number[];
  push?: boolean;
  onChunk?: (chunk: Buffer) => void;
}

export function credentialsFromEnv(env: NodeJS.ProcessEnv = process.env): OciCredentials | null {
  const username = env.RULEC_OCI_USERNAME;
  const password = env.RULEC_OCI_PASSWORD;
  return username && password !== undefined ? { username, password } : null;
}

export class OciClient {
  readonly ref: OciRef;
  readonly maxBlobBytes: number;
  readonly maxManifestBytes: number;
  private readonly agents: HttpRequest['agents'];
  private readonly credentials: OciCredentials | null;
  private readonly tokens = new Map<string, { token: string; until: number }>();
  /** The scope's Authorization header, once a challenge told us how to earn one. */
  private readonly auth = new Map<string, string>();

  constructor(spec: string, private readonly o: OciOptions = {}) {
    this.ref = parseOciRef(spec);
    this.credentials = o.credentials === undefined ? credentialsFromEnv() : o.credentials;
    this.maxBlobBytes = o.maxBlobBytes ?? 64 * 1024 * 1024;
    this.maxManifestBytes = o.maxManifestBytes ?? 4 * 1024 * 1024;
    this.agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true, ...(o.ca ? { ca: o.ca } : {}) }) };
  }

  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  private url(path: string): URL {
    return new URL(`${this.ref.protocol}//${this.ref.host}/v2/${this.ref.repository}/${path}`);
  }

  /** A manifest by tag or digest; null when the registry has none. */
  async getManifest(reference: string): Promise<{ bytes: Buffer; digest: string | null; mediaType: string } | null> {
    const r = await this.send({ method: 'GET', path: `manifests/${reference}`, headers: { accept: MANIFEST_MEDIA_TYPE }, maxBytes: this.maxManifestBytes, what: `manifest ${reference}`, ok: [200, 404] });
    if (r.status === 404) return null;
    const digest = header(r, 'docker-content-digest');
    return { bytes: r.body, digest: digest ?? null, mediaType: header(r, 'content-type') ?? '' };
  }

  /** The digest a tag points at, or null. */
  async headManifest(reference: string): Promise<string | null> {
    const r = await this.send({ method: 'HEAD', path: `manifests/${reference}`, headers: { accept: MANIFEST_MEDIA_TYPE }, maxBytes: 0, what: `manifest ${reference}`, ok: [200, 404] });
    return r.status === 404 ? null : header(r, 'docker-content-digest') ?? 'unknown';
  }

  async putManifest(reference: string, bytes: Buffer): Promise<void> {
    await this.send({ method: 'PUT', path: `manifests/${reference}`, headers: { 'content-type': MANIFEST_MEDIA_TYPE }, body: bytes, maxBytes: 64 * 1024, what: `manifest ${reference}`, ok: [201], push: true });
  }

  async deleteManifest(digest: string): Promise<void> {
    await this.send({ method: 'DELETE', path: `manifests/${digest}`, maxBytes: 64 * 1024, what: `manifest ${digest}`, ok: [202, 404], push: true });
  }

  /** A blob's bytes, checked against `digest` as they stream; null when the registry has none. */
  async getBlob(digest: string, maxBytes = this.maxBlobBytes): Promise<Buffer | null> {
    const hash = createHash('sha256');
    const r = await this.send({ method: 'GET', path: `blobs/${digest}`, maxBytes, what: `blob ${digest.slice(0, 19)}`, ok: [200, 404], onChunk: (c) => hash.update(c) });
    if (r.status === 404) return null;
    const got = `sha256:${hash.digest('hex')}`;
    if (got !== digest) {
      throw registryError('RC7702', { file: `blobs/${digest}`, message: `${this.ref.display} served ${got.slice(0, 19)} for blob ${digest.slice(0, 19)}: a swapped or corrupted blob is never used` });
    }
    return r.body;
  }

  async hasBlob(digest: string): Promise<boolean> {
    const r = await this.send({ method: 'HEAD', path: `blobs/${digest}`, maxBytes: 0, what: `blob ${digest.slice(0, 19)}`, ok: [200, 404], push: true });
    return r.status === 200;
  }

  /** Upload a blob (POST a session, PUT the bytes with their digest); the registry checks the digest. */
  async putBlob(digest: string, bytes: Buffer): Promise<void> {
    const what = `upload of blob ${digest.slice(0, 19)}`;
    const start = await this.send({ method: 'POST', path: 'blobs/uploads/', maxBytes: 64 * 1024, what, ok: [202], push: true });
    const location = header(start, 'location');
    if (!location) throw registryError('RC7610', { file: '', message: `${what}: ${this.ref.host} gave no upload location` });
    const url = new URL(location, this.url(''));
    url.searchParams.set('digest', digest);
    await this.send({ method: 'PUT', path: url.href, headers: { 'content-type': 'application/octet-stream' }, body: bytes, maxBytes: 64 * 1024, what, ok: [201], push: true });
  }

  // ---- requests, auth, redirects ----

  private async send(a: Attempt): Promise<HttpResponse> {
    const scope = `repository:${this.ref.repository}:${a.push ? 'pull,push' : 'pull'}`;
    let url = /^https?:\/\//.test(a.path) ? new URL(a.path) : this.url(a.path);
    let challenged = false;
    for (let hop = 0; hop < 6; hop++) {
      const sameHost = url.host === this.ref.host;
      const authorization = sameHost ? this.auth.get(scope) : undefined;
      const r = await this.request(a, url, authorization);
      if (r.status === 401 && sameHost && !challenged) {
        challenged = true;
        await this.answerChallenge(header(r, 'www-authenticate') ?? '', scope, a.what);
        hop -= 1;
        continue;
      }
      if ([301, 302, 303, 307, 308].includes(r.status) && header(r, 'location')) {
        url = new URL(header(r, 'location') as string, url);
        continue;
      }
      if (r.status === 401 || r.status === 403) {
        throw registryError('RC7611', { file: '', message: `${a.what}: ${this.ref.host} refused ${this.credentials ? `user ${this.credentials.username}` : 'anonymous access'} (HTTP ${r.status}${errorText(r)})`, hint: 'set RULEC_OCI_USERNAME and RULEC_OCI_PASSWORD to credentials that may read (admit) or write (mirror) the repository' });
      }
      if (!a.ok.includes(r.status)) throw registryError('RC7610', { file: '', message: `${a.what}: ${this.ref.host} answered HTTP ${r.status}${errorText(r)}` });
      return r;
    }
    throw registryError('RC7610', { file: '', message: `${a.what}: too many redirects from ${this.ref.host}` });
  }

  private request(a: Attempt, url: URL, authorization: string | undefined): Promise<HttpResponse> {
    // Error bodies are small; the answer's own limit applies only to a success.
    return httpRequest({
      method: a.method, url, ...(a.body ? { body: a.body } : {}),
      headers: { ...a.headers, ...(authorization ? { authorization } : {}) },
      maxBytes: Math.max(a.maxBytes, 64 * 1024), timeoutMs: this.o.timeoutMs ?? 30_000, deadlineMs: this.o.deadlineMs ?? 120_000,
      agents: this.agents, what: a.what, ...(a.onChunk ? { onChunk: a.onChunk } : {}),
    }).then((r) => {
      if (r.status < 300 && r.body.length > a.maxBytes && a.method !== 'HEAD') {
        throw registryError('RC7612', { file: '', message: `${a.what}: ${url.host} sent ${r.body.length} bytes, over the limit of ${a.maxBytes}` });
      }
      return r;
    });
  }

  /** Earn an Authorization header for `scope` from a 401's challenge. */
  private async answerChallenge(challenge: string, scope: string, what: string): Promise<void> {
    const scheme = /^\s*(\w+)/.exec(challenge)?.[1]?.toLowerCase();
    const basic = this.credentials && `Basic ${Buffer.from(`${this.credentials.username}:${this.credentials.password}`).toString('base64')}`;
    if (scheme === 'basic') {
      if (!basic) throw registryError('RC7611', { file: '', message: `${what}: ${this.ref.host} needs credentials`, hint: 'set RULEC_OCI_USERNAME and RULEC_OCI_PASSWORD' });
      this.auth.set(scope, basic);
      return;
    }
    if (scheme !== 'bearer') throw registryError('RC7611', { file: '', message: `${what}: ${this.ref.host} asks for unsupported authentication ${JSON.stringify(challenge.slice(0, 80))}` });
    const params = challengeParams(challenge);
    const cached = this.tokens.get(scope);
    if (cached && cached.until > Date.now()) {
      this.auth.set(scope, `Bearer ${cached.token}`);
      return;
    }
    if (!params.realm) throw registryError('RC7611', { file: '', message: `${what}: ${this.ref.host}'s Bearer challenge names no realm` });
    const realm = new URL(params.realm);
    if (params.service) realm.searchParams.set('service', params.service);
    realm.searchParams.set('scope', scope);
    const r = await httpRequest({
      method: 'GET', url: realm, headers: basic ? { authorization: basic } : {}, maxBytes: this.maxManifestBytes,
      timeoutMs: this.o.timeoutMs ?? 30_000, deadlineMs: this.o.deadlineMs ?? 120_000, agents: this.agents, what: `token for ${scope}`,
    });
    if (r.status !== 200) throw registryError('RC7611', { file: '', message: `${what}: the token service ${realm.host} refused ${this.credentials ? `user ${this.credentials.username}` : 'anonymous access'} (HTTP ${r.status})` });
    const body = parseJson(r.body) as { token?: unknown; access_token?: unknown; expires_in?: unknown } | null;
    const token = typeof body?.token === 'string' ? body.token : typeof body?.access_token === 'string' ? body.access_token : null;
    if (!token) throw registryError('RC7611', { file: '', message: `${what}: the token service ${realm.host} sent no token` });
    const life = typeof body?.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 60;
    this.tokens.set(scope, { token, until: Date.now() + (life - 5) * 1000 });
    this.auth.set(scope, `Bearer ${token}`);
  }
}

/** `Bearer realm="…",service="…",scope="…"` → its parameters. */
export function challengeParams(challenge: string): Record<string, string> {
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const m of challenge.replace(/^\s*\w+\s*/, '').matchAll(/(\w+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^,\s]*))/g)) {
    out[(m[1] as string).toLowerCase()] = (m[2] ?? m[3] ?? '').replace(/\\(.)/g, '$1');
  }
  return out;
}

function header(r: HttpResponse, name: string): string | undefined {
  const v = r.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function parseJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return null;
  }
}

/** The first error of a distribution error body, for messages. */
function errorText(r: HttpResponse): string {
  const body = parseJson(r.body) as { errors?: { code?: unknown; message?: unknown }[] } | null;
  const e = body?.errors?.[0];
  return e && typeof e.code === 'string' ? `: ${e.code}${typeof e.message === 'string' ? ` ${e.message.slice(0, 200)}` : ''}` : '';
}
