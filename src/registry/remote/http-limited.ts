/**
 * One HTTP(S) request with the limits an untrusted server must never lift:
 * 1. a response body larger than `maxBytes` is cut while it streams (or
 *    refused from its Content-Length before a byte is read) — RC7612, never
 *    an unbounded buffer (endless data);
 * 2. a server that stalls longer than `timeoutMs` between bytes, or takes
 *    longer than `deadlineMs` in all, is cut (RC7610);
 * 3. a body shorter than its Content-Length (the connection was cut) is an
 *    error, never a short read taken as the whole (RC7610);
 * 4. plain HTTP only to a loopback address (RC7613), checked again here so
 *    no redirect can send a request elsewhere in the clear.
 * `onChunk` sees every chunk as it arrives (a blob's hash is computed while
 * it streams).
 */
import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import { registryError } from '../errors.js';
import { isLoopback } from './oci-ref.js';

export interface HttpRequest {
  method: 'GET' | 'HEAD' | 'PUT' | 'POST' | 'PATCH' | 'DELETE';
  url: URL;
  headers?: Record<string, string>;
  body?: Buffer;
  maxBytes: number;
  timeoutMs: number;
  deadlineMs: number;
  agents: { http: http.Agent; https: https.Agent };
  onChunk?: (chunk: Buffer) => void;
  /** What is asked for, in messages ("manifest index", "blob sha256:…"). */
  what: string;
}

export interface HttpResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export function httpRequest(r: HttpRequest): Promise<HttpResponse> {
  if (r.url.protocol === 'http:' && !isLoopback(r.url.hostname)) {
    return Promise.reject(registryError('RC7613', { file: '', message: `refused to send ${r.what} over plain HTTP to ${r.url.host}, which is not a loopback address` }));
  }
  const mod = r.url.protocol === 'https:' ? https : http;
  const agent = r.url.protocol === 'https:' ? r.agents.https : r.agents.http;
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (code: string, message: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      req.destroy();
      reject(registryError(code, { file: '', message }));
    };
    const headers = { ...r.headers, ...(r.body ? { 'content-length': String(r.body.length) } : {}) };
    const req = mod.request(r.url, { method: r.method, headers, agent }, (res) => {
      const declared = Number(res.headers['content-length'] ?? NaN);
      if (r.method !== 'HEAD' && declared > r.maxBytes) return fail('RC7612', `${r.what}: ${r.url.host} announced ${declared} bytes, over the limit of ${r.maxBytes}`);
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > r.maxBytes) return fail('RC7612', `${r.what}: ${r.url.host} sent more than the limit of ${r.maxBytes} bytes; the response was cut`);
        r.onChunk?.(chunk);
        chunks.push(chunk);
      });
      res.on('aborted', () => fail('RC7610', `${r.what}: the connection to ${r.url.host} was cut after ${size} bytes`));
      res.on('error', (e) => fail('RC7610', `${r.what}: ${r.url.host}: ${e.message}`));
      res.on('end', () => {
        if (!res.complete || (Number.isFinite(declared) && r.method !== 'HEAD' && size !== declared)) {
          return fail('RC7610', `${r.what}: the connection to ${r.url.host} was cut after ${size} of ${Number.isFinite(declared) ? declared : '?'} bytes`);
        }
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
      });
    });
    const deadline = setTimeout(() => fail('RC7610', `${r.what}: ${r.url.host} did not answer within ${Math.round(r.deadlineMs / 1000)} s`), r.deadlineMs);
    req.setTimeout(r.timeoutMs, () => fail('RC7610', `${r.what}: ${r.url.host} stalled for ${Math.round(r.timeoutMs / 1000)} s`));
    req.on('error', (e: NodeJS.ErrnoException) => fail('RC7610', `${r.what}: cannot reach ${r.url.host}: ${e.code ?? e.message}`));
    req.end(r.body);
  });
}
