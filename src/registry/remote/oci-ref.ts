/**
 * `oci://HOST[:PORT]/REPO` (HTTPS) and `oci+http://HOST[:PORT]/REPO` (plain
 * HTTP) → where an OCI registry mirror is. Plain HTTP is allowed only to a
 * loopback host (a registry on this machine, as in tests): anywhere else a
 * network attacker could read credentials and serve anything (RC7613).
 */
import { isIP } from 'node:net';
import { registryError } from '../errors.js';

export interface OciRef {
  /** `https:` or `http:` */
  protocol: 'https:' | 'http:';
  /** host[:port] as given. */
  host: string;
  /** The hostname alone (no brackets, no port). */
  hostname: string;
  repository: string;
  /** The spec with any credentials removed, for messages. */
  display: string;
}

/** Repository names of the distribution spec: lower-case path components. */
const REPOSITORY = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*$/;

export function isLoopback(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h === '::1') return true;
  return isIP(h) === 4 && h.startsWith('127.');
}

export function parseOciRef(spec: string): OciRef {
  const m = /^oci(\+http)?:\/\/([^/]+)\/(.+)$/.exec(spec);
  const bad = (why: string) => registryError('RC7610', { file: '', message: `${spec}: ${why}`, hint: 'an OCI mirror is oci://HOST[:PORT]/REPOSITORY (HTTPS), or oci+http://127.0.0.1:PORT/REPOSITORY on this machine' });
  if (!m) throw bad('not oci://HOST/REPOSITORY');
  const [, plain, host, repository] = m as unknown as [string, string | undefined, string, string];
  if (host.includes('@')) throw bad('credentials do not belong in the URL: set RULEC_OCI_USERNAME and RULEC_OCI_PASSWORD');
  let url: URL;
  try {
    url = new URL(`http://${host}/`);
  } catch {
    throw bad(`${host} is not a host[:port]`);
  }
  if (!REPOSITORY.test(repository)) throw bad(`${repository} is not a repository name (lower-case letters, digits, separators . _ - and /)`);
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  if (plain && !isLoopback(hostname)) {
    throw registryError('RC7613', { file: '', message: `${spec}: plain HTTP (oci+http://) is refused for ${hostname}, which is not a loopback address`, hint: 'use oci://, which speaks HTTPS' });
  }
  return { protocol: plain ? 'http:' : 'https:', host, hostname, repository, display: spec };
}
