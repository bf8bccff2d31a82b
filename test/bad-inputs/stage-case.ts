/** Materialise a bad-input case: its committed files plus its generated ones, as a fresh git repository. */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { GENERATED } from './generated.js';
import { materialiseTree, type Materialised } from '../helpers/fixture-repo.js';

export const BAD_INPUTS = import.meta.dirname;

export function badInputCases(): string[] {
  return readdirSync(BAD_INPUTS).filter((d) => existsSync(join(BAD_INPUTS, d, 'expected.json'))).sort();
}

/** The caller removes `m.dir` when done. */
export function stageCase(name: string): Materialised {
  const staging = mkdtempSync(join(tmpdir(), 'rulec-bad-src-'));
  try {
    const committed = join(BAD_INPUTS, name, 'repo');
    if (existsSync(committed)) cpSync(committed, staging, { recursive: true, verbatimSymlinks: true });
    for (const g of GENERATED[name]?.() ?? []) {
      const target = join(staging, ...g.path.split('/'));
      mkdirSync(dirname(target), { recursive: true });
      if ('symlink' in g) symlinkSync(g.symlink, target);
      else writeFileSync(target, g.bytes);
    }
    return materialiseTree(staging, {}, true, join(BAD_INPUTS, name, 'managed'));
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
