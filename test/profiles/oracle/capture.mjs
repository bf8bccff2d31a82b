#!/usr/bin/env node
// Runs the real agent CLIs (via ../../../../shared/agent-oracle/run-oracle.sh,
// or $ORACLE_DIR) on rulec's profile fixtures and merges each captured
// request into test/profiles/expected/<agent>/<fixture>.json, in the same
// shape as the oracle's expected-sample/.
//
//   ORACLE_AGENTS_DIR=/tmp/agents node test/profiles/oracle/capture.mjs [FILTER]
//
// The fixtures are copied to /tmp/rq/a/b/<fixture> (five path components, like
// the oracle's sample run, so Qwen's cwd-relative home paths normalise the
// same way) and each copy becomes a git repository; `_gitignore` is restored
// as `.gitignore`. Run directories go to /var/tmp so the private HOME shares
// no path prefix with the fixture. FILTER keeps runs whose key contains it.
//
// Claude Code loads `.claude/rules` files in the order the file system lists
// them (readdir order: hashed on ext4, not by name), so each run also records
// that order for every directory of a `.claude/rules` tree in the fixture copy
// and in the run's HOME (`listing`), read with opendir (Node's readdirSync
// sorts). The conformance test replays it.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RUNS } from './runs.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixtures = path.join(here, '..', 'fixtures');
const expected = path.join(here, '..', 'expected');
const oracle = process.env.ORACLE_DIR ?? path.resolve(here, '../../../../shared/agent-oracle');
const base = '/tmp/rq/a/b';
const filter = process.argv[2] ?? '';

fs.rmSync('/tmp/rq', { recursive: true, force: true });
fs.mkdirSync(base, { recursive: true });
for (const name of fs.readdirSync(fixtures)) {
  const dst = path.join(base, name);
  fs.cpSync(path.join(fixtures, name), dst, { recursive: true, verbatimSymlinks: true });
  if (name.endsWith('.home') || name.startsWith('_')) continue;
  const ign = path.join(dst, '_gitignore');
  if (fs.existsSync(ign)) fs.renameSync(ign, path.join(dst, '.gitignore'));
  const env = { ...process.env, GIT_AUTHOR_NAME: 'oracle', GIT_AUTHOR_EMAIL: 'oracle@example.invalid',
    GIT_COMMITTER_NAME: 'oracle', GIT_COMMITTER_EMAIL: 'oracle@example.invalid',
    GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z' };
  execFileSync('sh', ['-c', 'git init -q -b main . && git add -A && git commit -q -m fixture'], { cwd: dst, env });
}

/** Entry names of `dir` in file-system order. */
function rawEntries(dir) {
  const d = fs.opendirSync(dir);
  const out = [];
  for (let e = d.readSync(); e !== null; e = d.readSync()) out.push(e.name);
  d.closeSync();
  return out;
}

/** Listing of every directory inside a `.claude/rules` tree below `root`, keyed `prefix` + relative path. */
function listings(root, prefix, out = {}, rel = '', inRules = false) {
  if (!fs.existsSync(root)) return out;
  const names = rawEntries(root);
  if (inRules) out[prefix + rel] = names;
  for (const name of names) {
    if (name === '.git') continue;
    const abs = path.join(root, name);
    if (!fs.statSync(abs, { throwIfNoEntry: false })?.isDirectory()) continue;
    const child = rel === '' ? name : `${rel}/${name}`;
    listings(abs, prefix, out, child, inRules || child === '.claude/rules' || child.endsWith('/.claude/rules'));
  }
  return out;
}

for (const run of RUNS) {
  const key = `${run.agent}/${run.fixture}/cwd=${run.cwd}${run.variant ? ` [${run.variant}]` : ''}`;
  if (!key.includes(filter)) continue;
  const env = { ...process.env, ORACLE_RUNS_DIR: '/var/tmp/rq-runs', ...(run.env ?? {}) };
  if (run.variant) env.ORACLE_VARIANT = run.variant;
  const args = [run.agent, path.join(base, run.fixture), run.cwd, ...(run.args?.length ? ['--', ...run.args] : [])];
  const out = execFileSync(path.join(oracle, 'run-oracle.sh'), args, { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const runDir = /^run dir: (\S+)/m.exec(out)?.[1];
  if (!runDir) throw new Error(`${key}: no run dir in\n${out}`);
  const r = JSON.parse(fs.readFileSync(path.join(runDir, 'result.json'), 'utf8'));
  const listing = { ...listings(path.join(base, run.fixture), ''), ...listings(path.join(runDir, 'home'), '~/') };
  const file = path.join(expected, run.agent, `${run.fixture}.json`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const doc = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : { agent: run.agent, fixture: run.fixture, runs: {} };
  doc.agent_version = r.agent_version;
  const runKey = `cwd=${run.cwd}${run.variant ? ` [${run.variant}]` : ''}`;
  doc.runs[runKey] = {
    workdir: run.cwd, variant: run.variant ?? null, extra_args: r.extra_args, oracle_env: r.oracle_env,
    status: r.status, markers: r.markers, markers_outside_block: r.markers_outside_block,
    instruction_text: r.instruction_text, instruction_text_bytes: r.instruction_text_bytes,
    ...(r.payload_bytes != null ? { payload_bytes: r.payload_bytes } : {}),
    ...(Object.keys(listing).length > 0 ? { listing } : {}),
  };
  doc.runs = Object.fromEntries(Object.entries(doc.runs).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  fs.writeFileSync(file, JSON.stringify(doc, null, 2) + '\n');
  console.log(`${key}: ${r.status} ${JSON.stringify(r.markers)}`);
  fs.rmSync(runDir, { recursive: true, force: true });
}
