#!/usr/bin/env node
// `npm run bench:review` — times `rulec check` and `rulec diff` on the synthetic monorepo.
//
//   node bench/review.mjs [--runs 5] [--files 100000] [--seed 1] [--cli dist/cli/bin.js] [--out .bench/review.json] [--fast-only]
//
// 1. Generate (or reuse) the monorepo of bench/generate.mjs and clone it with shared objects
//    and no checkout (check and diff read git objects only, so no work tree is needed).
// 2. Make two commits on top of main with git plumbing (a private index, never a checkout):
//    `no-rule`, which edits an ordinary source file, and `root-agents`, which edits the root
//    AGENTS.md (its test command and one sentence).
// 3. Time, each as a fresh node process: `rulec check --head no-rule` (the fast path: one
//    line, exit 0; the target is under 300 ms), cold (no closure kept for base's tree) and
//    warm (kept by the run before), `rulec check --head root-agents` (compile both
//    commits, diff, risk), and `rulec diff bundle:A bundle:B` between the bundles of main and
//    root-agents (built once, untimed, through the library).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { BENCH_DIR, REPO_ROOT, SIZE_ARGS, ensureMonorepo, sizeOptions } from './generate.mjs';
import { measure, median } from './measure.mjs';

function git(cwd, args, extraEnv = {}, input) {
  return execFileSync('git', args, { cwd, env: { ...process.env, ...extraEnv }, input, maxBuffer: 1 << 30 }).toString();
}

const IDENTITY = { GIT_AUTHOR_NAME: 'bench', GIT_AUTHOR_EMAIL: 'bench@example.invalid', GIT_COMMITTER_NAME: 'bench', GIT_COMMITTER_EMAIL: 'bench@example.invalid',
  GIT_AUTHOR_DATE: '2026-01-02T00:00:00Z', GIT_COMMITTER_DATE: '2026-01-02T00:00:00Z' };

/** A commit on `parent` that replaces the blobs of `files` (path → text), made with a private index. */
function commitOnto(repo, parent, files, message) {
  const index = path.join(repo, `bench-index-${process.pid}`);
  const env = { GIT_INDEX_FILE: index, ...IDENTITY };
  try {
    git(repo, ['read-tree', parent], env);
    for (const [p, text] of Object.entries(files)) {
      const blob = git(repo, ['hash-object', '-w', '--stdin'], env, text).trim();
      git(repo, ['update-index', '--add', '--cacheinfo', `100644,${blob},${p}`], env);
    }
    const tree = git(repo, ['write-tree'], env).trim();
    return git(repo, ['commit-tree', tree, '-p', parent, '-m', message], env).trim();
  } finally {
    fs.rmSync(index, { force: true });
  }
}

async function main() {
  const { values } = parseArgs({ options: { ...SIZE_ARGS, runs: { type: 'string', default: '5' }, 'fast-only': { type: 'boolean' }, cli: { type: 'string', default: path.join(REPO_ROOT, 'dist', 'cli', 'bin.js') },
    out: { type: 'string', default: path.join(BENCH_DIR, 'review.json') } } });
  const runs = Number(values.runs);
  const cli = path.resolve(values.cli);
  const source = ensureMonorepo(sizeOptions(values));
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rulec-review-'));
  try {
    const repo = path.join(tmp, 'repo');
    git(tmp, ['clone', '-q', '--shared', '--no-checkout', source.dir, repo]);
    // The generator commits 100,000 loose objects; a CI checkout reads packs. Pack them (untimed).
    git(repo, ['repack', '-a', '-d', '-q']);
    const base = git(repo, ['rev-parse', 'main']).trim();
    const files = git(repo, ['ls-tree', '-r', '--name-only', base]).split('\n').filter(Boolean);
    const plain = files.find((f) => f.endsWith('.ts')) ?? files.find((f) => !f.endsWith('.md'));
    const agents = git(repo, ['cat-file', 'blob', `${base}:AGENTS.md`]);
    git(repo, ['branch', '-f', 'no-rule', commitOnto(repo, base, { [plain]: `export const edited = ${Date.UTC(2026, 0, 2)};\n` }, 'edit a source file')]);
    // A new section with a test command, and one more line in the first section.
    const edited = `${agents.replace('\n## ', '\nRun the linter before every push.\n\n## ')}\n## Testing\n\nRun \`pnpm vitest run\` before committing.\n`;
    git(repo, ['branch', '-f', 'root-agents', commitOnto(repo, base, { 'AGENTS.md': edited }, 'edit the root AGENTS.md')]);

    // Two bundles for the diff: built through the library, from git objects, untimed.
    const lib = (m) => import(pathToFileURL(path.join(REPO_ROOT, 'dist', m)).href);
    const [{ compile }, { writeBundle }, { gitSource }] = await Promise.all([lib('compile.js'), lib('emit/write-bundle.js'), lib('source/repo-source.js')]);
    const bundles = {};
    for (const ref of values['fast-only'] ? [] : ['main', 'root-agents']) {
      process.stdout.write(`review: building the bundle of ${ref}… `);
      const t = performance.now();
      const result = await compile({ repoDir: repo, source: await gitSource(repo, ref) });
      bundles[ref] = writeBundle(path.join(tmp, `out-${ref}`), result);
      console.log(`${((performance.now() - t) / 1000).toFixed(1)} s`);
    }

    // The no-change check twice: cold (no closure kept for base's tree: the first check of a
    // branch on a fresh machine) and warm (the closure kept in .git/rulec by an earlier check).
    const closures = path.join(repo, '.git', 'rulec');
    const commands = [
      { id: 'check-none-cold', label: 'check, no rule file changed (cold)', args: [cli, 'check', '--repo', repo, '--head', 'no-rule'], expect: [0], before: () => fs.rmSync(closures, { recursive: true, force: true }) },
      { id: 'check-none', label: 'check, no rule file changed (warm)', args: [cli, 'check', '--repo', repo, '--head', 'no-rule'], expect: [0] },
      { id: 'check-root', label: 'check, root AGENTS.md edited', args: [cli, 'check', '--repo', repo, '--head', 'root-agents', '--format', 'json'], expect: [0, 1] },
      { id: 'diff-bundles', label: 'diff bundle:A bundle:B (root AGENTS.md)', args: [cli, 'diff', `bundle:${bundles.main}`, `bundle:${bundles['root-agents']}`], expect: [0] },
    ];
    const rows = [];
    for (const c of values['fast-only'] ? commands.slice(0, 2) : commands) {
      const samples = [];
      for (let i = 0; i < (c.id.startsWith('check-none') ? runs : Math.min(runs, 2)); i++) {
        c.before?.();
        const r = await measure(c.args, { cwd: tmp });
        if (!c.expect.includes(r.code)) throw new Error(`${c.label} exited ${r.code}: ${r.stderr.slice(-2000)}`);
        samples.push(r);
        console.log(`review: ${c.label}: ${r.ms.toFixed(0)} ms, exit ${r.code}`);
      }
      const last = samples[samples.length - 1];
      rows.push({ id: c.id, command: c.label, medianMs: +median(samples.map((s) => s.ms)).toFixed(1), minMs: +Math.min(...samples.map((s) => s.ms)).toFixed(1),
        peakRssMiB: +(Math.max(...samples.map((s) => s.rssKiB ?? 0)) / 1024).toFixed(1), runs: samples.length,
        stdoutHead: c.id === 'check-root' ? '' : last.stdout.split('\n').slice(0, 16).join('\n') });
    }
    console.log('');
    console.log(rows.find((r) => r.id === 'diff-bundles')?.stdoutHead ?? '');
    console.log(rows.find((r) => r.id === 'check-none')?.stdoutHead ?? '');
    console.log('');
    for (const r of rows) console.log(`${r.command.padEnd(44)} median ${String(r.medianMs.toFixed(0)).padStart(7)} ms  min ${String(r.minMs.toFixed(0)).padStart(7)} ms  peak RSS ${r.peakRssMiB} MiB  (${r.runs} runs)`);
    const result = { date: new Date().toISOString(), machine: { node: process.version, cpus: os.cpus().length, load: os.loadavg() }, repo: { counts: source.counts, commit: source.commit }, results: rows };
    fs.mkdirSync(path.dirname(path.resolve(values.out)), { recursive: true });
    fs.writeFileSync(path.resolve(values.out), `${JSON.stringify(result, null, 2)}\n`);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(`review: ${e.stack ?? e}`);
  process.exitCode = 2;
});
