/**
 * `--store SPEC` → a Store:
 *   DIR                         the local directory store
 *   git+URL | git+PATH          the git store (any git URL, or a path to a bare repository)
 *   oci://HOST/REPO             an OCI registry mirror, read side (HTTPS)
 *   oci+http://HOST/REPO        the same over plain HTTP: loopback hosts only
 * The remote stores are loaded only when named (git and HTTPS cost a CLI
 * start-up more than the local store does).
 */
import { resolve } from 'node:path';
import type { OciOptions } from '../remote/oci-client.js';
import type { Store } from '../store.js';
import { LocalStore } from './local.js';

export interface OpenStoreOptions {
  cwd?: string;
  /** The cache directory of the git store's scratch repository. */
  cacheDir?: string;
  oci?: OciOptions;
}

export function isOciSpec(spec: string): boolean {
  return spec.startsWith('oci://') || spec.startsWith('oci+http://');
}

export async function openStore(spec: string, o: OpenStoreOptions = {}): Promise<Store> {
  const cwd = o.cwd ?? process.cwd();
  if (spec.startsWith('git+')) {
    const { GitStore } = await import('./git.js');
    return new GitStore(spec, { cwd, ...(o.cacheDir ? { cacheDir: o.cacheDir } : {}) });
  }
  if (isOciSpec(spec)) {
    const { OciStore } = await import('./oci.js');
    return new OciStore(spec, o.oci);
  }
  return new LocalStore(resolve(cwd, spec));
}
