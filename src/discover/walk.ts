/** Sorted directory walk for trees that are not git work trees. */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { compareCodeUnits } from '../util/compare.js';

/** Every file and symlink below `root`, as sorted posix paths; `ignore` names are skipped at any depth. */
export function walkTree(root: string, ignore: readonly string[]): string[] {
  const skip = new Set(ignore);
  const out: string[] = [];
  const visit = (abs: string, rel: string): void => {
    let entries;
    try {
      entries = readdirSync(abs, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (skip.has(e.name)) continue;
      const childRel = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) visit(join(abs, e.name), childRel);
      else if (e.isFile() || e.isSymbolicLink()) out.push(childRel);
    }
  };
  visit(root, '');
  return out.sort(compareCodeUnits);
}
