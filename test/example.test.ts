/**
 * The bundled example as a golden: examples/monorepo with the managed policy in examples/managed
 * and its personal file untracked (examples/monorepo.json), built as `npm run example` builds it
 * (scripts/example.mjs). Its report is test/example/expected/build.txt, which the README's
 * `rulec build` example quotes (test/readme.test.ts holds the quote to the file);
 * UPDATE_GOLDEN=1 rewrites it.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { materialiseTree } from './helpers/fixture-repo.js';
import { runCli } from './helpers/run-cli.js';

const ROOT = join(import.meta.dirname, '..');
const GOLDEN = join(import.meta.dirname, 'example', 'expected', 'build.txt');

it('builds the bundled example as npm run example does: the report is the golden one', async () => {
  const { untracked } = JSON.parse(readFileSync(join(ROOT, 'examples', 'monorepo.json'), 'utf8')) as { untracked: string[] };
  const m = materialiseTree(join(ROOT, 'examples', 'monorepo'), { untracked }, true, join(ROOT, 'examples', 'managed'));
  try {
    const r = await runCli(['build', '--managed', m.managed as string, '--include-local'], m.repo);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(existsSync(join(m.repo, 'bundles', 'current'))).toBe(true);
    if (process.env.UPDATE_GOLDEN === '1') writeFileSync(GOLDEN, r.stdout);
    expect(r.stdout).toBe(readFileSync(GOLDEN, 'utf8'));
  } finally {
    rmSync(m.dir, { recursive: true, force: true });
  }
});
