#!/usr/bin/env node
// `npm test` after the build: the tests' type-check (`npm run typecheck:test`) and `vitest run`
// side by side, and it fails when either does. The type-check is one core's work for about 9 s
// from a fresh clone; vitest spends its first seconds building the shared test repositories
// (git and file I/O) before its workers start, so running the two one after the other left
// that time on the table. Arguments go to vitest (`npm test -- test/cli.test.ts`).
//
// The type-check's output is held until it ends, then printed in one piece with its verdict,
// so it does not interleave with vitest's report.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
const vitestPackage = require.resolve('vitest/package.json');
const vitestBin = join(dirname(vitestPackage), JSON.parse(readFileSync(vitestPackage, 'utf8')).bin.vitest);

/** Runs node with `args` in the project root; resolves to its exit code (1 when killed by a signal). */
function run(args, { capture }) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    const chunks = [];
    if (capture) {
      child.stdout.on('data', (c) => chunks.push(c));
      child.stderr.on('data', (c) => chunks.push(c));
    }
    child.on('error', (err) => resolve({ code: 1, output: `${err.message}\n` }));
    child.on('close', (code) => resolve({ code: code ?? 1, output: Buffer.concat(chunks).toString('utf8') }));
  });
}

const started = performance.now();
const typecheck = run([join(ROOT, 'scripts', 'build.mjs'), 'tsconfig.test.json'], { capture: true }).then((r) => {
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  process.stderr.write(r.code === 0 ? `type-check of the tests: clean (${seconds} s)\n` : `${r.output}type-check of the tests: FAILED (exit ${r.code})\n`);
  return r.code;
});
const vitest = run([vitestBin, 'run', ...process.argv.slice(2)], { capture: false }).then((r) => r.code);

const [types, tests] = await Promise.all([typecheck, vitest]);
if (types !== 0 && tests === 0) process.stderr.write('npm test: the tests passed, but the type-check failed (above)\n');
process.exit(tests !== 0 ? tests : types);
