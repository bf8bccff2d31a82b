#!/usr/bin/env node
// `node bench/open-bundle.mjs <bundle dir> <path>` — what an agent runtime does per run, timed in
// process (after Node start and the library import): openBundle (lazy verification) and
// contextFor(path), which reads and verifies the path's index parts, its variant part and the
// variant's text. Prints one JSON line: {"openMs", "contextMs", "totalMs", "cpuMs", "againMs" (a second open + contextFor in the same process), "bytes"}.
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { REPO_ROOT } from './generate.mjs';

const [dir, target] = process.argv.slice(2);
if (!dir || target === undefined) {
  console.error('usage: node bench/open-bundle.mjs <bundle dir> <path>');
  process.exit(2);
}
const { openBundle } = await import(pathToFileURL(path.join(REPO_ROOT, 'dist', 'index.js')).href);
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const bundle = openBundle(dir);
const t1 = performance.now();
const ctx = bundle.contextFor(target);
const t2 = performance.now();
const cpu = process.cpuUsage(cpu0);
// CPU time as well as wall time: on a shared machine the wall time includes waiting for a core.
const cpuMs = (cpu.user + cpu.system) / 1000;
// The same again in the same process: what a long-running runtime pays per bundle once the code is compiled.
const t3 = performance.now();
openBundle(dir).contextFor(target);
const againMs = performance.now() - t3;
console.log(JSON.stringify({ openMs: +(t1 - t0).toFixed(2), contextMs: +(t2 - t1).toFixed(2), totalMs: +(t2 - t0).toFixed(2), cpuMs: +cpuMs.toFixed(2), againMs: +againMs.toFixed(2), bytes: ctx.bytes }));
