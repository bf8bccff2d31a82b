#!/usr/bin/env node
// `npm run build` and `npm run typecheck:test`: `tsc -b` over the given project (default
// tsconfig.json), after making sure dist/.tsbuildinfo still describes dist/.
//
// `tsc -b` trusts its build info alone: with an output deleted (`rm -rf dist/*` keeps the
// dotfile) or overwritten by an older checkout's build, it would report "up to date" and leave
// dist/ missing files or holding old code. So the build info is dropped, and everything
// rebuilt, when a source's output is missing or newer than the build info.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const INFO = join(ROOT, 'dist', '.tsbuildinfo');

function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

if (existsSync(INFO)) {
  const built = statSync(INFO).mtimeMs;
  const stale = sources(join(ROOT, 'src')).find((src) => {
    const out = join(ROOT, 'dist', relative(join(ROOT, 'src'), src).replace(/\.ts$/, '.js'));
    return !existsSync(out) || statSync(out).mtimeMs > built;
  });
  if (stale !== undefined) {
    console.error(`build: ${relative(ROOT, stale)}'s output is missing or newer than the build info; rebuilding everything`);
    rmSync(INFO);
  }
}

// The compiler is TypeScript 7 (the native one): its package exports only its version, so its
// `tsc` is found through package.json's `bin`.
const manifest = createRequire(import.meta.url).resolve('typescript/package.json');
const tsc = join(dirname(manifest), JSON.parse(readFileSync(manifest, 'utf8')).bin.tsc);
const r = spawnSync(process.execPath, [tsc, '-b', process.argv[2] ?? 'tsconfig.json'], { cwd: ROOT, stdio: 'inherit' });
process.exit(r.status ?? 1);
