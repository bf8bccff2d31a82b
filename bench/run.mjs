#!/usr/bin/env node
// `npm run bench` — times the rulec CLI on a synthetic monorepo against a floor.
//
//   node bench/run.mjs [--runs 3] [--files 100000] [--dirs N] [--instruction-files N]
//                      [--rules N] [--seed 1] [--cli dist/cli/bin.js] [--out .bench/results.json]
//
// Every measurement is a fresh child process: wall time from spawn to exit, peak RSS from
// bench/rss-hook.mjs. See bench/README.md.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { BENCH_DIR, REPO_ROOT, SIZE_ARGS, ensureMonorepo, sizeOptions } from './generate.mjs';
import { dirStats, measure, median } from './measure.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const FLOOR = path.join(HERE, 'floor.mjs');
const OPEN_BUNDLE = path.join(HERE, 'open-bundle.mjs');

class BenchError extends Error {
  constructor(message, exitCode) {
    super(message);
    this.exitCode = exitCode;
  }
}

/** Abort the benchmark (cleanup in `finally` blocks still runs). */
function fail(message, code = 1) {
  throw new BenchError(message, code);
}

function tail(text, lines = 25) {
  const all = text.replace(/\s+$/, '').split('\n');
  return all.slice(-lines).join('\n');
}

/**
 * The bundle directory a build wrote under `out`: `<out>/current` names it (a text file
 * holding the bundle id, or a symlink/directory); or `out` itself holds manifest.json.
 */
function bundleDir(out) {
  const current = path.join(out, 'current');
  try {
    if (fs.statSync(current).isDirectory()) return current;
    const id = fs.readFileSync(current, 'utf8').trim();
    if (id && fs.existsSync(path.join(out, id, 'manifest.json'))) return path.join(out, id);
  } catch {
    // no `current` pointer
  }
  return fs.existsSync(path.join(out, 'manifest.json')) ? out : path.join(out, '<bundle_id>');
}

/** Medians of the in-process figures bench/open-bundle.mjs prints, one JSON line per sample. */
function inProcess(samples) {
  const parsed = samples.map((s) => { try { return JSON.parse(s.stdout); } catch { return null; } }).filter((x) => x !== null);
  if (parsed.length === 0) return null;
  const at = (k) => +median(parsed.map((x) => x[k])).toFixed(2);
  return { openMs: at('openMs'), contextMs: at('contextMs'), totalMs: at('totalMs'), cpuMs: at('cpuMs'), againMs: at('againMs') };
}

/** Flags named in a help text, e.g. ['--repo', '--out', '--fresh']. */
function helpFlags(text) {
  return new Set(text.match(/--[a-z][a-z0-9-]*/g) ?? []);
}

async function main() {
  const { values } = parseArgs({
    options: {
      ...SIZE_ARGS,
      runs: { type: 'string', default: '3' },
      cli: { type: 'string', default: path.join(REPO_ROOT, 'dist', 'cli', 'bin.js') },
      out: { type: 'string', default: path.join(BENCH_DIR, 'results.json') },
      bundles: { type: 'string', default: BENCH_DIR },
      peer: { type: 'string' },
      only: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log('usage: node bench/run.mjs [--runs 3] [--files 100000] [--dirs N] [--instruction-files N] [--rules N] [--seed 1] [--cli PATH] [--peer PATH] [--out FILE] [--bundles DIR] [--only floor,node,help,explain-code,cold,warm,edit,explain,open,explain-fresh,peer]');
    return;
  }
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) fail(`--runs must be a positive integer, got ${values.runs}`, 2);
  const cli = path.resolve(values.cli);

  // 1. the repository under test
  const opts = sizeOptions(values);
  console.log('bench: preparing synthetic monorepo…');
  let repo;
  try {
    repo = ensureMonorepo(opts);
  } catch (err) {
    fail(`generating the monorepo failed: ${err.message}`, 2);
  }
  console.log(
    `bench: ${repo.reused ? 'reusing' : `generated in ${repo.seconds}s`} ${path.relative(REPO_ROOT, repo.dir)} — ` +
      `${repo.counts.files} files, ${repo.counts.dirs} dirs, ${repo.counts.instructionFiles} instruction files, ` +
      `${repo.counts.globs} globs in ${repo.counts.ruleFiles} rule files, commit ${repo.commit.slice(0, 12)}`,
  );

  // 2. the CLI must exist and answer --help
  if (!fs.existsSync(cli)) fail(`${path.relative(REPO_ROOT, cli)} does not exist; run \`npm run build\` first (npm run bench does).`, 2);
  const buildHelp = await measure([cli, 'build', '--help']);
  if (buildHelp.code !== 0) {
    fail(`\`rulec build --help\` exited ${buildHelp.code ?? buildHelp.signal}\n--- stderr (tail) ---\n${tail(buildHelp.stderr)}\n--- stdout (tail) ---\n${tail(buildHelp.stdout)}`);
  }
  const explainHelp = await measure([cli, 'explain', '--help']);
  const explainFlags = explainHelp.code === 0 ? helpFlags(explainHelp.stdout + explainHelp.stderr) : null;
  if (!explainFlags) console.log(`bench: \`rulec explain --help\` exited ${explainHelp.code}; skipping explain`);
  const hasFresh = explainFlags?.has('--fresh') ?? false;
  if (explainFlags && !hasFresh) console.log('bench: `rulec explain` has no --fresh flag; skipping explain --fresh');
  // explain reads the bundle we built, when it has a flag to say where it is
  const bundleFlag = explainFlags ? ['--bundle', '--bundle-dir', '--out'].find((f) => explainFlags.has(f)) : undefined;

  // 3. measurements, interleaved per round so drift spreads over every command
  // Bundles go beside the repository by default, on its file system, as `rulec build`'s default
  // <repo>/bundles does — not to the temp directory, whose file system may be another. --bundles
  // puts them elsewhere: on the project's machine, creating a bundle's 3,841 files costs 2-3 s on
  // its ext4 volume (no journal, so each create skips recently deleted inodes) and 0.1 s on a tmpfs.
  fs.mkdirSync(values.bundles, { recursive: true });
  const tmpBase = fs.mkdtempSync(path.join(path.resolve(values.bundles), 'rulec-bench-'));
  const deep = repo.deepPath;
  const rel = (p) => (p.startsWith(REPO_ROOT) ? path.relative(REPO_ROOT, p) : p);
  // The build cache (<repo>/.rulec/cache/) is removed before each cold build, so it is cold; the
  // warm build is the same command again (nothing changed: answered from the cache); the edit
  // build changes one instruction file first (restored after it, at the end of the round).
  const cacheDir = path.join(repo.dir, '.rulec', 'cache');
  // A nested AGENTS.md (the first one git lists two directories down): a typical one-file edit.
  const nested = execFileSync('git', ['ls-files', '-z', '--', ':(glob)*/*/AGENTS.md'], { cwd: repo.dir, maxBuffer: 1 << 26 }).toString().split('\0').filter(Boolean).sort()[0];
  const edited = path.join(repo.dir, nested ?? 'AGENTS.md');
  const commands = [
    { id: 'floor', label: 'floor (git ls-files + sha256)', args: () => [FLOOR, repo.dir] },
    // Start-up: what a command that does no build costs over Node's own start.
    { id: 'node', label: 'node -e 0 (Node\'s start)', args: () => ['-e', '0'] },
    { id: 'help', label: 'rulec --help', args: () => [cli, '--help'] },
    { id: 'explain-code', label: 'rulec explain-code RC3103', args: () => [cli, 'explain-code', 'RC3103'] },
    { id: 'cold', label: 'build (cold)', args: (r) => [cli, 'build', '--repo', repo.dir, '--out', r.out], before: () => fs.rmSync(cacheDir, { recursive: true, force: true }) },
    { id: 'warm', label: 'build (warm, nothing changed)', args: (r) => [cli, 'build', '--repo', repo.dir, '--out', r.out] },
  ];
  const editRow = { id: 'edit', label: 'build (warm, one instruction file edited)', args: (r) => [cli, 'build', '--repo', repo.dir, '--out', r.out],
    before: (r) => { r.restore = fs.readFileSync(edited); fs.appendFileSync(edited, `\n- Edited by the bench in round ${r.round}.\n`); },
    after: (r) => { if (r.restore) fs.writeFileSync(edited, r.restore); } };
  if (explainFlags) {
    const explainArgs = (r) => [cli, 'explain', deep, '--repo', repo.dir, ...(bundleFlag ? [bundleFlag, bundleDir(r.out)] : []), '--format', 'json'];
    commands.push({ id: 'explain', label: 'explain (bundle)', args: explainArgs });
    // The library call a runtime makes: openBundle + contextFor, timed in process too (stdout).
    commands.push({ id: 'open', label: 'openBundle + contextFor', args: (r) => [OPEN_BUNDLE, bundleDir(r.out), deep] });
    // --fresh compiles on the fly: it must not also name a bundle to answer from.
    if (hasFresh) commands.push({ id: 'explain-fresh', label: 'explain --fresh', args: () => [cli, 'explain', deep, '--repo', repo.dir, '--format', 'json', '--fresh'] });
  }
  // A peer linting the same files, side by side, when one is installed: claude-code-lint's
  // `claudelint check-all` (--peer PATH to its bin script, else `claudelint` on PATH). It is never
  // a dependency of rulec; its version is recorded with the results.
  const peer = findPeer(values.peer);
  if (peer) {
    console.log(`bench: peer ${peer.name} ${peer.version} (${rel(peer.bin)})`);
    commands.push({ id: 'peer', label: `peer: claudelint check-all (${peer.version})`,
      args: (r) => [peer.bin, 'check-all', '--cwd', repo.dir, '--no-cache', '--no-color', '--format', 'json', '-o', path.join(tmpBase, `peer-${path.basename(r.out)}.json`)] });
  } else {
    console.log('bench: no peer installed (claude-code-lint: npm i -g claude-code-lint, or --peer PATH); no side-by-side row');
  }
  // Last in a round: the explain rows read the bundle the warm build left.
  commands.push(editRow);
  const only = values.only ? new Set(values.only.split(',')) : null;
  if (only) {
    for (let i = commands.length - 1; i >= 0; i--) if (!only.has(commands[i].id) && commands[i].id !== 'floor') commands.splice(i, 1);
  }
  const samples = Object.fromEntries(commands.map((c) => [c.id, []]));
  let bundle = null;
  try {
    for (let i = 0; i < runs; i++) {
      const round = { out: path.join(tmpBase, `out-${i}`), round: i + 1 }; // does not exist yet: a fresh out dir
      for (const c of commands) {
        process.stdout.write(`bench: round ${i + 1}/${runs} ${c.label}… `);
        c.before?.(round);
        let r;
        try {
          r = await measure(c.args(round));
        } finally {
          c.after?.(round);
        }
        samples[c.id].push(r);
        console.log(`${r.ms.toFixed(0)} ms, exit ${r.code ?? r.signal}`);
        if (r.code !== 0 && r.code !== 1 && c.id !== 'peer') {
          fail(
            `${c.label} failed (exit ${r.code ?? r.signal}):\n  node ${c.args(round).map(rel).join(' ')}\n` +
              `--- stderr (tail) ---\n${tail(r.stderr) || '(empty)'}\n--- stdout (tail) ---\n${tail(r.stdout) || '(empty)'}`,
          );
        }
        if (c.id === 'floor' && r.code !== 0) fail(`the floor script failed:\n${tail(r.stderr)}`);
        if (c.id === 'cold' && i === 0) bundle = dirStats(round.out);
      }
      fs.rmSync(round.out, { recursive: true, force: true });
    }
  } finally {
    fs.rmSync(tmpBase, { recursive: true, force: true });
  }

  // 4. did the CLI write into the repository (a cache would make "cold" runs warm)?
  const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: repo.dir, maxBuffer: 1 << 28 }).toString().trim();
  if (dirty) {
    console.warn(`bench: warning: the CLI left changes in the benchmark repo (first lines below); later "cold" runs may not be cold.\n${tail(dirty.split('\n').slice(0, 10).join('\n'))}`);
  }

  // 5. report
  const floorMedian = median(samples.floor.map((s) => s.ms));
  const rows = commands.map((c) => {
    const ss = samples[c.id];
    const ms = ss.map((s) => s.ms);
    const rss = ss.map((s) => s.rssKiB).filter((x) => x != null);
    const codes = [...new Set(ss.map((s) => s.code ?? s.signal))];
    return {
      id: c.id,
      command: c.label,
      argv: ['node', ...c.args({ out: '<out>' }).map(rel)],
      exitCodes: codes,
      medianMs: +median(ms).toFixed(1),
      minMs: +Math.min(...ms).toFixed(1),
      maxMs: +Math.max(...ms).toFixed(1),
      samplesMs: ms.map((x) => +x.toFixed(1)),
      peakRssMiB: rss.length ? +(Math.max(...rss) / 1024).toFixed(1) : null,
      ratioToFloor: +(median(ms) / floorMedian).toFixed(2),
      ...(c.id === 'open' ? { inProcessMs: inProcess(ss) } : {}),
      stdoutBytes: ss[ss.length - 1].stdoutBytes,
    };
  });

  const header = ['command', 'exit', 'median ms', 'min ms', 'max ms', 'peak RSS MiB', '× floor'];
  const table = rows.map((r) => [r.command, r.exitCodes.join(','), r.medianMs.toFixed(0), r.minMs.toFixed(0), r.maxMs.toFixed(0), r.peakRssMiB == null ? '-' : r.peakRssMiB.toFixed(1), r.ratioToFloor.toFixed(2)]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)));
  const fmt = (row) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  console.log('');
  console.log(`rulec bench — ${repo.counts.files} files, ${repo.counts.dirs} dirs, ${repo.counts.instructionFiles} instruction files, ${repo.counts.globs} globs; ${runs} run(s) each`);
  console.log(fmt(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of table) console.log(fmt(row));
  if (bundle) console.log(`bundle: ${bundle.files} files, ${(bundle.bytes / 1024 / 1024).toFixed(2)} MiB`);
  if (explainFlags) console.log(`explain path: ${deep}`);
  if (samples.edit) console.log(`edited file: ${path.relative(repo.dir, edited)}`);
  const open = rows.find((r) => r.id === 'open');
  if (open?.inProcessMs) {
    const p = open.inProcessMs;
    console.log(`openBundle + contextFor in process (after Node start and import), median: ${p.totalMs} ms wall, ${p.cpuMs} ms CPU (open ${p.openMs} ms, contextFor ${p.contextMs} ms); again in the same process: ${p.againMs} ms`);
  }

  const rulecHead = (() => {
    try {
      return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: REPO_ROOT }).toString().trim();
    } catch {
      return null;
    }
  })();
  const results = {
    date: new Date().toISOString(),
    rulec: { head: rulecHead, cli: rel(cli) },
    machine: { node: process.version, platform: `${os.platform()} ${os.release()}`, cpu: os.cpus()[0]?.model ?? null, cpus: os.cpus().length, memGiB: +(os.totalmem() / 2 ** 30).toFixed(1) },
    runs,
    // Where the builds wrote their bundles: the file system's create path can move a cold build by seconds.
    bundles: rel(path.resolve(values.bundles)),
    repo: { dir: rel(repo.dir), commit: repo.commit, options: repo.options, counts: repo.counts, generatedSeconds: repo.seconds, reused: repo.reused },
    explainPath: explainFlags ? deep : null,
    explainBundleFlag: bundleFlag ?? null,
    bundle,
    peer: peer ? { name: peer.name, version: peer.version } : null,
    repoDirtyAfterRun: Boolean(dirty),
    results: rows,
  };
  const outFile = path.resolve(values.out);
  fs.mkdirSync(path.dirname(outFile), { recursive: true });
  fs.writeFileSync(outFile, JSON.stringify(results, null, 2) + '\n');
  console.log(`results: ${rel(outFile)}`);
}

/** The peer's bin script (a JS file node can run) and its version, or null when none is installed. */
function findPeer(given) {
  let bin = given ? path.resolve(given) : null;
  if (!bin) {
    for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
      const candidate = path.join(dir, 'claudelint');
      if (dir && fs.existsSync(candidate)) {
        bin = candidate;
        break;
      }
    }
  }
  if (!bin || !fs.existsSync(bin)) return null;
  bin = fs.realpathSync(bin);
  try {
    const version = execFileSync(process.execPath, [bin, '--version'], { encoding: 'utf8', timeout: 30_000 }).trim();
    return { name: 'claude-code-lint', bin, version };
  } catch {
    return null;
  }
}

main().catch((err) => {
  console.error(`bench: ${err instanceof BenchError ? err.message : (err.stack ?? String(err))}`);
  process.exitCode = err instanceof BenchError ? err.exitCode : 2;
});
