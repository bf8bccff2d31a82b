/** Files shipped inside the rulec package (schemas, built-in policy), read by path. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

/** dist/config/package-files.js → package root. */
export const PACKAGE_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export function readPackageFile(rel: string): string {
  return readFileSync(join(PACKAGE_ROOT, rel), 'utf8');
}

export function readPackageJson(rel: string): Record<string, unknown> {
  return JSON.parse(readPackageFile(rel)) as Record<string, unknown>;
}

let version: string | undefined;

/** The version of the rulec whose code is running: read once, as the code itself is loaded once. */
export function compilerVersion(): string {
  return (version ??= String(readPackageJson('package.json').version));
}
