/**
 * File-system hygiene of the bundle output (#8.13): rulec never reads its own
 * output back as input — wherever --out points (a rules folder, the managed
 * directory) and whichever command runs next (build, lint, explain, without
 * the flag) — and an interrupted build's temp directory is not an input either.
 * Interrupted builds leave no temp directory behind for good, and bundles are
 * created with the process umask (not a fixed 0700).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compile } from '../src/compile.js';
import { writeBundle } from '../src/emit/write-bundle.js';
import { makeTree, remove, type Made } from './security/tree.js';
import { runCli, type CliRun } from './helpers/run-cli.js';

const made: Made[] = [];
afterAll(() => made.forEach(remove));

const sourcesOf = (r: Awaited<ReturnType<typeof compile>>): string[] => [...r.resolution.sources.keys()].sort();

describe('rulec output is never input', () => {
  it.each([
    ['a rules folder', '.claude/rules/out'],
    ['a nested rules folder', 'pkg/.claude/rules/bundles'],
  ])('--out inside %s: the next build, lint and explain without --out read the same sources', async (_what, out) => {
    const m = makeTree({ 'AGENTS.md': '# Root\n\nRules.\n', '.claude/rules/a.md': '# A\n\nRule A.\n', 'pkg/AGENTS.md': '# P\n', 'pkg/x.ts': 'x\n' });
    made.push(m);
    const first = await compile({ repoDir: m.repo, outDir: join(m.repo, out) });
    writeBundle(join(m.repo, out), first);
    // Also an interrupted build's temp directory, and a bundle committed by mistake.
    mkdirSync(join(m.repo, out, `.tmp-${first.manifest.bundle_id}-x1`, 'context'), { recursive: true });
    writeFileSync(join(m.repo, out, `.tmp-${first.manifest.bundle_id}-x1`, 'context', 'v-0000000000000000.md'), '# half\n');
    for (const outDir of [join(m.repo, out), undefined]) {
      for (const includeLocal of [false, true]) {
        const again = await compile({ repoDir: m.repo, includeLocal, ...(outDir ? { outDir } : {}) });
        expect(sourcesOf(again)).toEqual(sourcesOf(first));
        if (!includeLocal) expect(again.manifest.bundle_id).toBe(first.manifest.bundle_id);
      }
    }
  });

  it('--out inside the managed directory is not read as managed policy', async () => {
    const m = makeTree({ 'AGENTS.md': '# Root\n' }, { managed: { 'base.md': '# Base\n\nManaged rule.\n' } });
    made.push(m);
    const first = await compile({ repoDir: m.repo, managedDir: m.managed, outDir: join(m.managed, 'bundles') });
    writeBundle(join(m.managed, 'bundles'), first);
    expect(readdirSync(join(m.managed, 'bundles'))).toContain(first.manifest.bundle_id);
    const again = await compile({ repoDir: m.repo, managedDir: m.managed });
    expect(sourcesOf(again)).toEqual(['AGENTS.md', 'managed://base.md']);
  });
});

describe('bundle directories on disk', () => {
  const gonePid = (): number => {
    const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    return Number(r.stdout);
  };

  it('an interrupted build\'s temp directory is removed once its process is gone; a running build\'s is kept', async () => {
    const m = makeTree({ 'AGENTS.md': '# Root\n' });
    made.push(m);
    const out = join(m.dir, 'out');
    const result = await compile({ repoDir: m.repo, outDir: out });
    const id = result.manifest.bundle_id;
    const live = spawn('sleep', ['30']);
    try {
      const dead = gonePid();
      const entries = {
        deadTmp: `.tmp-${id}-${dead}-0a1b2c3d4e5f`, deadOld: `.tmp-${id}-${dead}-0a1b2c3d4e5f.old`, deadPointer: `.tmp-current-${dead}`,
        liveTmp: `.tmp-${id}-${live.pid}-ffffffffffff`, legacyOld: `.tmp-${id}-AbC123`, legacyNew: `.tmp-${id}-XyZ789`, unrelated: '.tmp-notes',
      };
      mkdirSync(out, { recursive: true });
      for (const [key, name] of Object.entries(entries)) {
        if (key === 'deadPointer') writeFileSync(join(out, name), 'b-x\n');
        else mkdirSync(join(out, name, 'context'), { recursive: true });
      }
      const hourAgo = new Date(Date.now() - 2 * 3600 * 1000);
      utimesSync(join(out, entries.legacyOld), hourAgo, hourAgo);
      writeBundle(out, result);
      expect(readdirSync(out).sort()).toEqual([entries.legacyNew, entries.liveTmp, entries.unrelated, id, 'current'].sort());
    } finally {
      live.kill();
    }
  });

  // The umask is a process property: test files run in child processes (vitest.config.ts), so a
  // case sets it around an in-process build and puts it back before the next file can see it.
  it.each([0o022, 0o002, 0o077])('bundle directories and files follow the umask (%o)', async (mask) => {
    const m = makeTree({ 'AGENTS.md': '# Root\n', '.claude/rules/a.md': '---\npaths: ["src/**"]\n---\nA\n', 'src/a.ts': 'x\n' });
    made.push(m);
    const out = join(m.dir, `out-${mask}`);
    const before = process.umask(mask);
    let run: CliRun;
    try {
      run = await runCli(['build', '--out', out], m.repo);
    } finally {
      process.umask(before);
    }
    expect(run.code, run.stderr).toBe(0);
    const dir = join(out, readFileSync(join(out, 'current'), 'utf8').trim());
    for (const sub of ['', 'context', 'attachments']) expect(statSync(join(dir, sub)).mode & 0o777, `${sub || 'bundle'} dir`).toBe(0o777 & ~mask);
    expect(statSync(join(dir, 'manifest.json')).mode & 0o777).toBe(0o666 & ~mask);
    expect(statSync(join(out, 'current')).mode & 0o777).toBe(0o666 & ~mask);
  });
});
