/**
 * The bundled example as a golden: examples/monorepo with the managed policy in examples/managed
 * and its personal file untracked (examples/monorepo.json), built as `npm run example` builds it
 * (scripts/example.mjs), and the path it explains. The reports are test/example/expected/build.txt
 * and explain.txt, which the README's `rulec build` and `rulec explain` examples quote
 * (test/readme.test.ts holds each quote to its file); UPDATE_GOLDEN=1 rewrites them.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { materialiseTree } from './helpers/fixture-repo.js';
import { runCli } from './helpers/run-cli.js';

const ROOT = join(import.meta.dirname, '..');
const EXPECTED = join(import.meta.dirname, 'example', 'expected');

function golden(name: string, text: string): void {
  const file = join(EXPECTED, name);
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(file, text);
  expect(text).toBe(readFileSync(file, 'utf8'));
}

it('builds and explains the bundled example as npm run example does: the reports are the golden ones', async () => {
  const { untracked } = JSON.parse(readFileSync(join(ROOT, 'examples', 'monorepo.json'), 'utf8')) as { untracked: string[] };
  const m = materialiseTree(join(ROOT, 'examples', 'monorepo'), { untracked }, true, join(ROOT, 'examples', 'managed'));
  try {
    const r = await runCli(['build', '--managed', m.managed as string, '--include-local'], m.repo);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(existsSync(join(m.repo, 'bundles', 'current'))).toBe(true);
    golden('build.txt', r.stdout);
    // Answered from the bundle just built.
    const e = await runCli(['explain', 'packages/api/src/routes/orders.ts', '--managed', m.managed as string, '--include-local'], m.repo);
    expect([e.code, e.stderr]).toEqual([0, '']);
    expect(e.stdout).toContain('(from bundle bundles/b-');
    golden('explain.txt', e.stdout);
  } finally {
    rmSync(m.dir, { recursive: true, force: true });
  }
});
