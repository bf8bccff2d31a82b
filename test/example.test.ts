/**
 * The bundled example as a golden: examples/monorepo with the managed policy in examples/managed
 * and its personal file untracked (examples/monorepo.json), built as `npm run example` builds it
 * (scripts/example.mjs), and the path it explains, then reported in the formats the README
 * shows. The reports are test/example/expected/*, which the README's examples quote
 * (test/readme.test.ts holds each quote to its file); UPDATE_GOLDEN=1 rewrites them.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { materialiseTree } from './helpers/fixture-repo.js';
import { expectTree } from './helpers/golden.js';
import { runCli } from './helpers/run-cli.js';

const ROOT = join(import.meta.dirname, '..');

it('builds and explains the bundled example as npm run example does, in every report format: the reports are the golden ones', async () => {
  const { untracked } = JSON.parse(readFileSync(join(ROOT, 'examples', 'monorepo.json'), 'utf8')) as { untracked: string[] };
  const m = materialiseTree(join(ROOT, 'examples', 'monorepo'), { untracked }, true, join(ROOT, 'examples', 'managed'));
  const example = ['--managed', m.managed as string, '--include-local'];
  const reports = new Map<string, string>();
  try {
    const r = await runCli(['build', ...example], m.repo);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(existsSync(join(m.repo, 'bundles', 'current'))).toBe(true);
    reports.set('build.txt', r.stdout);
    // Answered from the bundle just built.
    const e = await runCli(['explain', 'packages/api/src/routes/orders.ts', ...example], m.repo);
    expect([e.code, e.stderr]).toEqual([0, '']);
    expect(e.stdout).toContain('(from bundle bundles/b-');
    reports.set('explain.txt', e.stdout);
    // The report formats of README's Reports, each as the README shows it.
    const json = await runCli(['build', ...example, '--format', 'json'], m.repo);
    const report = JSON.parse(json.stdout) as { bundle_id: string; written: string | null; conflicts: { kind: string; topic: string; adopted: string }[] };
    reports.set('build-json.txt', `${JSON.stringify({ bundle_id: report.bundle_id, written: report.written,
      conflicts: report.conflicts.map(({ kind, topic, adopted }) => ({ kind, topic, adopted })) })}\n`);
    reports.set('build.md', (await runCli(['build', ...example, '--format', 'markdown'], m.repo)).stdout);
    reports.set('lint.github.txt', (await runCli(['lint', ...example, '--format', 'github'], m.repo)).stdout);
    const sarif = JSON.parse((await runCli(['lint', ...example, '--format', 'sarif'], m.repo)).stdout) as { runs: { results: unknown[] }[] };
    reports.set('lint.sarif-result.json', `${JSON.stringify(sarif.runs[0]?.results[0], null, 2)}\n`);
  } finally {
    rmSync(m.dir, { recursive: true, force: true });
  }
  expectTree(join(import.meta.dirname, 'example', 'expected'), reports);
});
