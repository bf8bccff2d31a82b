/**
 * `rulec diff` in-process on a git fixture history: git refs, the work tree
 * and bundle directories as sides (golden text and JSON under
 * test/diff/expected/), and the side-resolution rule: explicit prefixes, a
 * bare name that is a bundle or a ref, an ambiguous or unknown name refused.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffCommand } from '../../src/cli/commands/diff.js';
import type { Io } from '../../src/cli/io.js';
import { compile } from '../../src/compile.js';
import type { BundleDiff } from '../../src/diff/bundle-diff.js';
import { writeBundle } from '../../src/emit/write-bundle.js';
import { gitSource } from '../../src/source/repo-source.js';
import { readWholeManifest } from '../helpers/bundle-manifest.js';
import { expectTree } from '../helpers/golden.js';
import { history, write, type History } from './history.js';
import { validateDiff } from './schema.js';

let h: History;
let out: string;

beforeAll(async () => {
  h = history({
    'AGENTS.md': '# Repo\n\n## Testing\n\n- Run `npm test` before committing.\n\n## Style\n\nKeep functions short.\n',
    'packages/api/AGENTS.md': '# API\n\n## Logging\n\nNever log request bodies.\n',
    'packages/api/src/index.ts': 'export {};\n',
    'packages/web/src/index.ts': 'export {};\n',
  });
  h.commit('head', {
    'AGENTS.md': '# Repo\n\n## Testing\n\n- Run `pnpm vitest run` before committing.\n',
    'packages/api/AGENTS.md': '# API\n\n## Logging\n\nNever log request bodies.\n\n## Style\n\nKeep functions short.\n\n## Testing\n\nRun `yarn jest` here.\n',
    'packages/web/AGENTS.md': '# Web\n\nUse Tailwind classes.\n',
  });
  out = join(h.dir, 'out');
  for (const rev of ['main~1', 'main']) writeBundle(join(out, rev === 'main' ? 'new' : 'old'), await compile({ repoDir: h.repo, source: await gitSource(h.repo, rev) }));
});
afterAll(() => h.cleanup());

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let o = '';
  let e = '';
  const io: Io = { out: (t) => { o += t; }, err: (t) => { e += t; }, cwd: h.repo };
  return { code: await diffCommand(args, io), out: o, err: e };
}

describe('rulec diff', () => {
  it('between two git refs: golden text and JSON', async () => {
    const text = await run(['git:main~1', 'git:main']);
    const json = await run(['main~1', 'main', '--format', 'json']);
    expect([text.code, json.code, text.err, json.err]).toEqual([0, 0, '', '']);
    const diff = JSON.parse(json.out) as BundleDiff;
    expect(validateDiff(diff)).toEqual([]);
    expect(diff.rules.map((r) => [r.kind, r.rule, r.effects])).toEqual([
      ['changed', 'testing', ['prescription-changed']],
      ['moved', 'style', ['scope-narrowed']],
      ['added', 'testing', []],
      ['added', '_top', []],
    ]);
    expect(diff.conflicts.introduced.map((e) => e.topic).sort()).toEqual(['package-manager', 'test-command']);
    expectTree(join(import.meta.dirname, 'expected', 'git-refs'), new Map([['diff.txt', text.out], ['diff.json', json.out.split(h.dir).join('{dir}')]]));
  });

  it('from bundle directories (bundle: prefix and bare paths, a current pointer): counts in index directories', async () => {
    const a = await run([`bundle:${join(out, 'old')}`, join(out, 'new'), '--format', 'json']);
    const b = await run(['git:main~1', 'git:main', '--format', 'json']);
    const fromBundles = JSON.parse(a.out) as BundleDiff;
    expect(validateDiff(fromBundles)).toEqual([]);
    expect(fromBundles.summary.unit).toBe('directories');
    expect(fromBundles.rules).toEqual((JSON.parse(b.out) as BundleDiff).rules);
    expect(fromBundles.semver).toEqual((JSON.parse(b.out) as BundleDiff).semver);
  });

  it('NEW defaults to the work tree', async () => {
    write(h.repo, { 'packages/web/AGENTS.md': '# Web\n\nUse Tailwind classes. Prefer CSS grid.\n' });
    const r = await run(['main', '--format', 'json']);
    const diff = JSON.parse(r.out) as BundleDiff;
    expect(diff.new).toMatchObject({ label: 'worktree:', kind: 'worktree' });
    expect(diff.rules.map((x) => [x.kind, x.new?.source])).toEqual([['changed', 'packages/web/AGENTS.md']]);
    write(h.repo, { 'packages/web/AGENTS.md': '# Web\n\nUse Tailwind classes.\n' });
  });

  it('refuses an ambiguous or unknown name and a tampered bundle, with the syntax to use', async () => {
    mkdirSync(join(h.repo, 'main'), { recursive: true });
    const { cpSync, writeFileSync, readdirSync, readFileSync } = await import('node:fs');
    cpSync(join(out, 'new'), join(h.repo, 'main'), { recursive: true });
    await expect(run(['main', 'git:main'])).rejects.toThrow(/both a bundle directory and a git revision: write bundle:main or git:main/);
    await expect(run(['nothing-here'])).rejects.toThrow(/neither a bundle directory nor a git revision/);
    await expect(run(['git:'])).rejects.toThrow(/needs a revision/);
    const bundleDir = join(out, 'new', readdirSync(join(out, 'new')).find((n) => n.startsWith('b-')) as string);
    // Same size, one byte flipped in the new AGENTS.md blob: found when the diff reads it.
    const manifest = readWholeManifest(bundleDir);
    const blob = join(bundleDir, 'sources', (manifest.files['AGENTS.md']?.sha256 ?? '').slice(7));
    const bytes = readFileSync(blob);
    bytes[0] = (bytes[0] as number) ^ 0x20;
    writeFileSync(blob, bytes);
    await expect(run([`bundle:${join(out, 'old')}`, `bundle:${bundleDir}`])).rejects.toThrow(/cannot use a bundle: sources\/[0-9a-f]{64} does not match its digest .*\(RC7006\)/);
    // Another size (the blob restored): refused when the diff reads it — sizes sit in the manifest's parts.
    bytes[0] = (bytes[0] as number) ^ 0x20;
    writeFileSync(blob, bytes);
    const ctx = readdirSync(join(bundleDir, 'context'))[0] as string;
    writeFileSync(join(bundleDir, 'context', ctx), 'tampered');
    await expect(run([`bundle:${join(out, 'old')}`, `bundle:${bundleDir}`])).rejects.toThrow(/cannot use a? ?bundle.*context\/v-[0-9a-f]{16}\.md does not match its digest.*RC7006/);
  });
});
