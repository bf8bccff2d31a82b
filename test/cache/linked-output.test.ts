/**
 * rulec's own output is never an input, however it is reached: an import through a committed link
 * into the build cache (`c -> .rulec/cache`, `@c/build`) or into the bundles directory
 * (`out -> bundles`, `@out/current`) reads as missing, so building again writes the same bundle
 * (it used to read back its own last record or pointer, and change on every build). An instruction
 * file that is a link to an excluded path is no input either.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { build } from './cache-repo.js';

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

function repo(link: string, target: string, imported: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'rulec-linked-output-'));
  made.push(dir);
  writeFileSync(join(dir, '.gitignore'), '.rulec/cache/\nbundles/\n');
  writeFileSync(join(dir, 'CLAUDE.md'), `# C\n\nSee @${imported} for the notes.\n`);
  writeFileSync(join(dir, 'README.md'), '# r\n');
  symlinkSync(target, join(dir, link));
  execFileSync('sh', ['-c', 'git init -q && git add -A && git -c user.email=a@b -c user.name=a commit -qm i'], { cwd: dir });
  return dir;
}

describe('an import through a link into rulec output', () => {
  it.each([
    ['the build cache', 'c', '.rulec/cache', 'c/build'],
    ['the bundles directory', 'out', 'bundles', 'out/current'],
  ])('into %s reads as missing, and the bundle stays the same build after build', async (_what, link, target, imported) => {
    const dir = repo(link, target, imported);
    const out = join(dir, 'bundles');
    const ids: (string | null)[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await build(dir, out);
      expect(r.code, r.stderr + r.stdout).toBe(0);
      ids.push(r.dir);
    }
    expect(new Set(ids).size).toBe(1);
    const bundle = ids[0] as string;
    const sources = JSON.parse(readFileSync(join(bundle, 'parts', 'files.json'), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(sources)).toEqual(['CLAUDE.md']);
    expect(readdirSync(join(bundle, 'sources'))).toHaveLength(1);
  });
});

describe('an instruction file that is a link to a path that is no input', () => {
  it('into a discover.exclude path: not discovered, however it is reached', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rulec-linked-output-'));
    made.push(dir);
    for (const d of ['.rulec', 'vendor/lib', 'pkg']) mkdirSync(join(dir, d), { recursive: true });
    writeFileSync(join(dir, '.rulec', 'policy.yaml'), 'discover:\n  exclude: ["vendor/**"]\n');
    writeFileSync(join(dir, 'AGENTS.md'), '# Root\n\n- Use pnpm.\n');
    writeFileSync(join(dir, 'vendor', 'lib', 'AGENTS.md'), '# Vendored\n\n- Use yarn.\n');
    writeFileSync(join(dir, 'pkg', 'index.ts'), 'export {};\n');
    symlinkSync('../vendor/lib/AGENTS.md', join(dir, 'pkg', 'AGENTS.md'));
    execFileSync('sh', ['-c', 'git init -q && git add -A && git -c user.email=a@b -c user.name=a commit -qm i'], { cwd: dir });
    const r = await build(dir, join(dir, 'bundles'), '--no-cache');
    expect(r.code, r.stderr + r.stdout).toBe(0);
    const sources = JSON.parse(readFileSync(join(r.dir as string, 'parts', 'files.json'), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(sources)).toEqual(['AGENTS.md']);
  });
});
