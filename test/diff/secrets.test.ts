/**
 * No detected secret leaves `rulec diff` or `rulec check`: a head commit adds
 * one planted credential of every kind (test/security/secret-fixture.ts, with
 * a policy that lets the build through), and every output format of both
 * commands — and the diff the library returns — is searched for any 12
 * consecutive characters of any secret.
 */
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkCommand } from '../../src/cli/commands/check.js';
import { diffCommand } from '../../src/cli/commands/diff.js';
import type { Io } from '../../src/cli/io.js';
import { compile } from '../../src/compile.js';
import { diffBundles } from '../../src/diff/diff-bundles.js';
import { viewOfCompile } from '../../src/diff/view.js';
import { gitSource } from '../../src/source/repo-source.js';
import { leakIn, PERMISSIVE_POLICY, writeSecretTree } from '../security/secret-fixture.js';
import { history, type History, type TreeEdit } from './history.js';

let h: History;

beforeAll(() => {
  const src = writeSecretTree();
  const planted: TreeEdit = {};
  for (const rel of readdirSync(src, { recursive: true, encoding: 'utf8' })) {
    const abs = join(src, rel);
    if (statSync(abs).isFile()) planted[relative(src, abs).split('\\').join('/')] = readFileSync(abs, 'utf8');
  }
  rmSync(src, { recursive: true, force: true });
  h = history({ 'AGENTS.md': '# Repo\n\nKeep functions short.\n', '.rulec/policy.yaml': PERMISSIVE_POLICY });
  h.commit('head', planted);
});
afterAll(() => h.cleanup());

async function run(command: typeof diffCommand, args: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const io: Io = { out: (t) => { out += t; }, err: (t) => { out += t; }, cwd: h.repo };
  return { code: await command(args, io), out };
}

const FORMATS = ['text', 'json', 'markdown', 'sarif', 'github', 'html'];

describe('secrets in a reviewed change', () => {
  it('the secrets really are in the change (the test can fail)', async () => {
    const head = await compile({ repoDir: h.repo, source: await gitSource(h.repo, 'main') });
    expect(leakIn(head.variants.map((v) => v.text).join('\n'))).not.toBeNull();
  });

  it('the library diff holds none', async () => {
    const base = await compile({ repoDir: h.repo, source: await gitSource(h.repo, 'main~1') });
    const head = await compile({ repoDir: h.repo, source: await gitSource(h.repo, 'main') });
    const diff = diffBundles(viewOfCompile(base, 'a', 'git', null), viewOfCompile(head, 'b', 'git', null));
    expect(diff.rules.length).toBeGreaterThan(0);
    expect(leakIn(JSON.stringify(diff))).toBeNull();
  });

  it.each(FORMATS)('rulec diff --format %s holds none', async (format) => {
    const r = await run(diffCommand, ['git:main~1', 'git:main', '--format', format]);
    expect(r.code).toBe(0);
    expect(leakIn(r.out)).toBeNull();
  });

  it.each(FORMATS)('rulec check --format %s holds none', async (format) => {
    const r = await run(checkCommand, ['--base', 'main~1', '--format', format]);
    expect([0, 1]).toContain(r.code);
    expect(leakIn(r.out)).toBeNull();
  });
});
