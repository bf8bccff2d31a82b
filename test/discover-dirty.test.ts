/**
 * `source.dirty` of a build from a work tree: true when any input — an
 * instruction file or a file read through an `@` import — differs from what
 * git holds at HEAD, false for a clean checkout. Discovery records the dirty
 * files as data; imports are judged by the same index facts (withImports).
 */
import { appendFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compile } from '../src/compile.js';
import { materialiseCase, type Materialised } from './helpers/fixture-repo.js';

const made: Materialised[] = [];
afterAll(() => {
  for (const m of made) rmSync(m.dir, { recursive: true, force: true });
});

async function build(edit: (repo: string) => void): Promise<{ dirty: boolean; ids: string[] }> {
  const m = materialiseCase('imports');
  made.push(m);
  edit(m.repo);
  const result = await compile({ repoDir: m.repo, outDir: join(m.dir, 'out') });
  return { dirty: result.manifest.source.dirty, ids: result.discovered.dirty };
}

describe('dirty inputs', () => {
  it('a clean checkout is not dirty', async () => {
    expect(await build(() => {})).toEqual({ dirty: false, ids: [] });
  });

  it('an edited instruction file makes the build dirty', async () => {
    expect(await build((repo) => appendFileSync(join(repo, 'CLAUDE.md'), '\nedited\n'))).toEqual({ dirty: true, ids: ['CLAUDE.md'] });
  });

  it('an edited file read only through an import makes the build dirty', async () => {
    expect(await build((repo) => appendFileSync(join(repo, 'docs/guide.md'), '\nedited\n'))).toEqual({ dirty: true, ids: ['docs/guide.md'] });
  });

  it('an edit to a file nothing reads does not', async () => {
    expect(await build((repo) => writeFileSync(join(repo, 'tests/test_app.py'), 'changed\n'))).toEqual({ dirty: false, ids: [] });
  });
});
