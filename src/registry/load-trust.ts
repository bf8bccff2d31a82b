/** Read and parse a trust file (I/O beside the pure parseTrust); an invalid one is a RegistryError with RC7301. */
import { readFileSync } from 'node:fs';
import { RegistryError, registryError } from './errors.js';
import { parseTrust, type TrustPolicy } from './trust.js';

export function loadTrust(path: string): TrustPolicy {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw registryError('RC7301', { file: path, message: `cannot read the trust file: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` });
  }
  const parsed = parseTrust(bytes, path);
  if (!parsed.ok) throw new RegistryError(parsed.diagnostics[0] as NonNullable<(typeof parsed.diagnostics)[0]>, parsed.diagnostics.slice(1));
  return parsed.trust;
}
