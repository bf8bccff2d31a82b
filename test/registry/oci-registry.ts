/**
 * A real OCI registry for the tests: Debian's docker-registry (the CNCF
 * distribution registry) on a free loopback port, storage in a temp dir,
 * started and stopped by the test file. Tests that need it are skipped with
 * REGISTRY_MISSING as their reason only when the binary is not installed
 * (.ci/run installs it).
 *
 * proxy() puts a loopback HTTP proxy in front of it that can fail on cue:
 * refuse connections (the registry is down), cut a response after N bytes,
 * or cut a request body after N bytes (a partial upload).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

const BIN = ['/usr/bin/docker-registry', ...(process.env.PATH ?? '').split(delimiter).map((d) => join(d, 'docker-registry'))].find((p) => existsSync(p));

export const REGISTRY_MISSING: string | null = BIN ? null
  : 'docker-registry is not installed, so the OCI registry tests are skipped (apt-get install docker-registry; .ci/run installs it)';
if (REGISTRY_MISSING) console.warn(`SKIP: ${REGISTRY_MISSING}`);

export interface RegistryConfig {
  /** Extra top-level YAML (auth:, http.tls) appended to the config. */
  auth?: string;
  tls?: { cert: string; key: string };
}

export interface RunningRegistry {
  port: number;
  dataDir: string;
  /** `oci+http://127.0.0.1:PORT/REPO` (or oci:// with TLS). */
  spec(repo: string): string;
  /** The file holding a blob in the registry's storage (for tamper tests). */
  blobFile(digest: string): string;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

export async function startRegistry(c: RegistryConfig = {}): Promise<RunningRegistry> {
  const dir = mkdtempSync(join(tmpdir(), 'rulec-oci-'));
  const dataDir = join(dir, 'data');
  mkdirSync(dataDir);
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const config = [
      'version: 0.1', 'log:', '  level: error', '  accesslog:', '    disabled: true',
      'storage:', '  filesystem:', `    rootdirectory: ${dataDir}`, '  delete:', '    enabled: true',
      '  maintenance:', '    uploadpurging:', '      enabled: false',
      'http:', `  addr: 127.0.0.1:${port}`,
      ...(c.tls ? ['  tls:', `    certificate: ${c.tls.cert}`, `    key: ${c.tls.key}`] : []),
      ...(c.auth ? [c.auth] : []),
    ].join('\n');
    writeFileSync(join(dir, 'config.yml'), `${config}\n`);
    const child = spawn(BIN as string, ['serve', join(dir, 'config.yml')], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr?.on('data', (d: Buffer) => { err += d.toString(); });
    if (await ready(child, port, !!c.tls)) {
      const scheme = c.tls ? 'oci' : 'oci+http';
      return {
        port, dataDir,
        spec: (repo) => `${scheme}://127.0.0.1:${port}/${repo}`,
        blobFile: (digest) => join(dataDir, 'docker/registry/v2/blobs/sha256', digest.slice(7, 9), digest.slice(7), 'data'),
        stop: async () => {
          if (child.exitCode === null) {
            const exited = new Promise((r) => child.once('exit', r));
            child.kill('SIGTERM');
            await exited;
          }
          rmSync(dir, { recursive: true, force: true });
        },
      };
    }
    if (child.exitCode === null) child.kill('SIGKILL');
    if (attempt === 2) throw new Error(`docker-registry did not start: ${err}`);
  }
}

async function ready(child: ChildProcess, port: number, tls: boolean): Promise<boolean> {
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) return false;
    const status = await new Promise<number>((resolve) => {
      const req = (tls ? https : http).get({ host: '127.0.0.1', port, path: '/v2/', rejectUnauthorized: false }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', () => resolve(0));
    });
    if (status === 200 || status === 401) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return false;
}

export type Fault =
  | { kind: 'down' }
  | { kind: 'cut-response'; after: number }
  | { kind: 'cut-request'; after: number };

export interface FaultyProxy {
  port: number;
  spec(repo: string): string;
  /** The fault for requests whose method and path match, until cleared; `times` limits how often it fires. */
  fail(match: (method: string, path: string) => boolean, fault: Fault, times?: number): void;
  clear(): void;
  /** Requests seen, as "METHOD path". */
  seen: string[];
  close(): Promise<void>;
}

/** A loopback HTTP proxy to `upstreamPort` that injects faults on cue. */
export async function proxy(upstreamPort: number): Promise<FaultyProxy> {
  let rule: { match: (m: string, p: string) => boolean; fault: Fault; times: number } | null = null;
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    seen.push(`${req.method} ${path}`);
    const fault = rule && rule.times > 0 && rule.match(req.method ?? '', path) ? rule.fault : null;
    if (fault && rule) rule.times -= 1;
    if (fault?.kind === 'down') return req.socket.destroy();
    const up = http.request({ host: '127.0.0.1', port: upstreamPort, method: req.method, path, headers: req.headers }, (upRes) => {
      res.writeHead(upRes.statusCode ?? 502, upRes.headers);
      let sent = 0;
      upRes.on('data', (chunk: Buffer) => {
        if (fault?.kind === 'cut-response' && sent + chunk.length > fault.after) {
          res.write(chunk.subarray(0, Math.max(0, fault.after - sent)));
          res.socket?.destroy();
          upRes.destroy();
          return;
        }
        sent += chunk.length;
        res.write(chunk);
      });
      upRes.on('end', () => res.end());
    });
    up.on('error', () => res.socket?.destroy());
    let received = 0;
    req.on('data', (chunk: Buffer) => {
      if (fault?.kind === 'cut-request' && received + chunk.length > fault.after) {
        up.destroy();
        req.socket.destroy();
        return;
      }
      received += chunk.length;
      up.write(chunk);
    });
    req.on('end', () => up.end());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    port, seen,
    spec: (repo) => `oci+http://127.0.0.1:${port}/${repo}`,
    fail: (match, fault, times = Number.POSITIVE_INFINITY) => { rule = { match, fault, times }; },
    clear: () => { rule = null; },
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}
