/**
 * Which compiler wrote a cache file: a digest of rulec's version, the
 * versions of the libraries whose output enters a bundle (the tokenizer, the
 * YAML parser, the glob matcher…), and the name, size and modification time
 * of every file of rulec's own code and schemas. A release is told apart by
 * its version; a development build, whose version stays put while its code
 * changes, by its files. Reading the stats of a few hundred files costs a few
 * milliseconds; hashing their bytes would cost more and buy nothing: a change
 * that keeps a file's size and time is not one a build makes.
 *
 * The identity is only ever compared with another one, never written into a
 * bundle, so the times in it cannot make a bundle differ between machines.
 */
import { createRequire } from 'node:module';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACKAGE_ROOT, compilerVersion, readPackageJson } from '../config/package-files.js';
import { walkTree } from '../discover/walk.js';
import { canonicalJson } from '../util/canonical-json.js';
import { sha256Hex } from '../util/hash.js';

let memo: string | null = null;

export function compilerIdentity(): string {
  memo ??= sha256Hex(canonicalJson({
    version: compilerVersion(),
    // Output depends on them too: the tokenizer's and the statements' \p{…} classes, NFKD.
    runtime: { node: process.versions.node, icu: process.versions.icu ?? null, unicode: process.versions.unicode ?? null },
    libraries: libraryVersions(),
    code: fileStats(join(dirname(fileURLToPath(import.meta.url)), '..')),
    schemas: fileStats(join(PACKAGE_ROOT, 'schemas')),
  }));
  return memo;
}

function fileStats(dir: string): [string, number, number][] {
  return walkTree(dir, []).filter((rel) => !rel.endsWith('.map') && !rel.endsWith('.d.ts')).map((rel) => {
    const st = statSync(join(dir, rel), { throwIfNoEntry: false });
    return [rel, st?.size ?? -1, Math.trunc(st?.mtimeMs ?? -1)];
  });
}

/** Each runtime dependency's installed version (null when it cannot be found). */
function libraryVersions(): Record<string, string | null> {
  const require = createRequire(import.meta.url);
  const deps = Object.keys((readPackageJson('package.json').dependencies ?? {}) as Record<string, string>).sort();
  return Object.fromEntries(deps.map((name) => [name, versionOf(require, name)]));
}

function versionOf(require: NodeJS.Require, name: string): string | null {
  try {
    // Some packages do not export their package.json: find it above their entry point.
    for (let dir = dirname(require.resolve(name)); dirname(dir) !== dir; dir = dirname(dir)) {
      const file = join(dir, 'package.json');
      if (!existsSync(file)) continue;
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown; version?: unknown };
      if (pkg.name === name) return typeof pkg.version === 'string' ? pkg.version : null;
    }
  } catch {
    // not installed where this module can resolve it
  }
  return null;
}
