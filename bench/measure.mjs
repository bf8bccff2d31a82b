// One benchmark measurement: a fresh `node --import rss-hook.mjs <args>` child process, its wall
// time from spawn to exit and its peak RSS (written by the hook at exit). Shared by run.mjs and
// review.mjs.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { REPO_ROOT } from './generate.mjs';

const HOOK = pathToFileURL(path.join(path.dirname(fileURLToPath(import.meta.url)), 'rss-hook.mjs')).href;

/** Run `node --import rss-hook <args>`; resolve {code, signal, ms, rssKiB, stdout, stderr}. */
export function measure(args, { cwd = REPO_ROOT } = {}) {
  const rssFile = path.join(os.tmpdir(), `rulec-bench-rss-${process.pid}-${Math.random().toString(36).slice(2)}`);
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, ['--import', HOOK, ...args], {
      cwd,
      env: { ...process.env, RULEC_BENCH_RSS_FILE: rssFile, NO_COLOR: '1', FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdoutBytes = 0;
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b) => {
      stdoutBytes += b.length;
      if (stdout.length < 1 << 20) stdout += b.toString();
    });
    child.stderr.on('data', (b) => {
      stderr += b.toString();
      if (stderr.length > 1 << 16) stderr = stderr.slice(-(1 << 15));
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      let rssKiB = null;
      try {
        rssKiB = Number(fs.readFileSync(rssFile, 'utf8'));
        fs.rmSync(rssFile, { force: true });
      } catch {
        // the hook did not run (killed by a signal, or crashed before exit handlers)
      }
      resolve({ code, signal, ms, rssKiB, stdout, stdoutBytes, stderr });
    });
  });
}

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Files and bytes below `dir` (0 and 0 when it does not exist): a bundle's size. */
export function dirStats(dir) {
  let files = 0;
  let bytes = 0;
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) {
        files++;
        bytes += fs.statSync(p).size;
      }
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return { files, bytes };
}
