#!/usr/bin/env node
// `npm run bench:growth` — how a cold build grows with the repository (issue #11: linear in
// instruction bytes, never in pairs of files).
//
//   node bench/growth.mjs [--runs 1] [--files 25000,50000,100000,200000]
//                         [--instruction-files 500,1000,2000,4000] [--seed 1] [--out .bench/growth.json]
//
// Two series of synthetic monorepos from bench/generate.mjs (generated once, cached under .bench/):
//   1. paths:        --files sizes, the generator's default mix (instruction files and glob
//                    rules at files/50: a repository that grows as a whole);
//   2. instructions: 100,000 files, --instruction-files sizes (they share boilerplate paragraphs,
//                    so duplicate groups grow with them).
// Each point: the floor (bench/floor.mjs), a cold `rulec build` (fresh process, fresh --out, the
// build cache removed), its peak RSS and bundle size, and time per instruction MiB — flat when
// growth is linear.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { BENCH_DIR, REPO_ROOT, ensureMonorepo } from './generate.mjs';
import { dirStats, measure, median } from './measure.mjs';

const FLOOR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'floor.mjs');
const CLI = path.join(REPO_ROOT, 'dist', 'cli', 'bin.js');

const list = (s) => s.split(',').map((x) => Number(x.trim())).filter((n) => Number.isInteger(n) && n > 0);

/** Bytes of the instruction files, as the floor script reads them (its stdout is one JSON line). */
function floorBytes(stdout) {
  try {
    return Number(JSON.parse(stdout).bytes) || null;
  } catch {
    return null;
  }
}

async function point(series, opts, runs, bundles) {
  const repo = ensureMonorepo(opts);
  const floors = [];
  const builds = [];
  let bundleBytes = 0;
  let instrBytes = null;
  for (let i = 0; i < runs; i++) {
    const f = await measure([FLOOR, repo.dir]);
    if (f.code !== 0) throw new Error(`floor failed: ${f.stderr.slice(-500)}`);
    instrBytes = floorBytes(f.stdout) ?? instrBytes;
    floors.push(f.ms);
    // Beside the repositories by default, on their file system (bench/run.mjs says why).
    const out = fs.mkdtempSync(path.join(bundles, 'growth-out-'));
    // Cold: the build cache a run before this one left (the repositories are kept) is removed, as
    // bench/run.mjs does before its cold row; the build writes it again.
    fs.rmSync(path.join(repo.dir, '.rulec', 'cache'), { recursive: true, force: true });
    try {
      const b = await measure([CLI, 'build', '--repo', repo.dir, '--out', out]);
      if (b.code !== 0 && b.code !== 1) throw new Error(`build exited ${b.code}: ${b.stderr.slice(-1000)}`);
      builds.push(b);
      bundleBytes = dirStats(out).bytes;
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  }
  const ms = median(builds.map((b) => b.ms));
  const row = {
    series, files: repo.counts.files, instructionFiles: repo.counts.instructionFiles, instructionMiB: instrBytes === null ? null : +(instrBytes / 2 ** 20).toFixed(2),
    floorMs: +median(floors).toFixed(0), buildMs: +ms.toFixed(0), xFloor: +(ms / median(floors)).toFixed(1),
    msPerInstructionMiB: instrBytes ? +(ms / (instrBytes / 2 ** 20)).toFixed(0) : null,
    peakRssMiB: +(Math.max(...builds.map((b) => b.rssKiB ?? 0)) / 1024).toFixed(0), bundleMiB: +(bundleBytes / 2 ** 20).toFixed(1),
  };
  console.log(`growth: ${series.padEnd(12)} ${String(row.files).padStart(7)} files ${String(row.instructionFiles).padStart(5)} instruction files (${row.instructionMiB} MiB): build ${row.buildMs} ms (${row.xFloor}× floor), ${row.msPerInstructionMiB} ms/instruction MiB, RSS ${row.peakRssMiB} MiB, bundle ${row.bundleMiB} MiB`);
  return row;
}

async function main() {
  const { values } = parseArgs({ options: {
    runs: { type: 'string', default: '1' }, files: { type: 'string', default: '25000,50000,100000,200000' },
    'instruction-files': { type: 'string', default: '500,1000,2000,4000' }, seed: { type: 'string', default: '1' },
    out: { type: 'string', default: path.join(BENCH_DIR, 'growth.json') }, bundles: { type: 'string', default: BENCH_DIR },
    help: { type: 'boolean', short: 'h' },
  } });
  if (values.help) {
    console.log('usage: node bench/growth.mjs [--runs 1] [--files 25000,50000,100000,200000] [--instruction-files 500,1000,2000,4000] [--seed 1] [--out FILE] [--bundles DIR]');
    return;
  }
  if (!fs.existsSync(CLI)) throw new Error('dist/cli/bin.js is missing: run `npm run build` first');
  const runs = Number(values.runs);
  const seed = Number(values.seed);
  const rows = [];
  const bundles = path.resolve(values.bundles);
  fs.mkdirSync(bundles, { recursive: true });
  for (const files of list(values.files)) rows.push(await point('paths', { seed, files }, runs, bundles));
  for (const n of list(values['instruction-files'])) rows.push(await point('instructions', { seed, files: 100000, instructionFiles: n }, runs, bundles));
  console.log('');
  console.log('| series | files | instruction files | instruction MiB | floor ms | build ms | × floor | ms per instruction MiB | peak RSS MiB | bundle MiB |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.series} | ${r.files} | ${r.instructionFiles} | ${r.instructionMiB} | ${r.floorMs} | ${r.buildMs} | ${r.xFloor} | ${r.msPerInstructionMiB} | ${r.peakRssMiB} | ${r.bundleMiB} |`);
  const result = { date: new Date().toISOString(), machine: { node: process.version, cpus: os.cpus().length, load: os.loadavg() }, runs, bundles: path.relative(REPO_ROOT, bundles) || bundles, rows };
  fs.mkdirSync(path.dirname(path.resolve(values.out)), { recursive: true });
  fs.writeFileSync(path.resolve(values.out), `${JSON.stringify(result, null, 2)}\n`);
}

main().catch((e) => {
  console.error(`growth: ${e.stack ?? e}`);
  process.exitCode = 2;
});
