/**
 * Whole-tree golden comparison: `actual` (relative path → text) against the
 * files under `expectedDir`. UPDATE_GOLDEN=1 rewrites the directory instead,
 * so changes show up in review as plain diffs.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';

export const UPDATE = process.env.UPDATE_GOLDEN === '1';

function readTree(dir: string, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir).sort()) {
    const abs = join(dir, name);
    const rel = prefix ? `${prefix}/${name}` : name;
    if (statSync(abs).isDirectory()) for (const [k, v] of readTree(abs, rel)) out.set(k, v);
    else out.set(rel, readFileSync(abs, 'utf8'));
  }
  return out;
}

export function expectTree(expectedDir: string, actual: Map<string, string>): void {
  if (UPDATE) {
    rmSync(expectedDir, { recursive: true, force: true });
    for (const [rel, text] of actual) {
      mkdirSync(dirname(join(expectedDir, rel)), { recursive: true });
      writeFileSync(join(expectedDir, rel), text);
    }
    return;
  }
  const expected = readTree(expectedDir);
  expect([...actual.keys()].sort(), `file list under ${expectedDir} (UPDATE_GOLDEN=1 to accept)`).toEqual([...expected.keys()].sort());
  for (const [rel, text] of actual) expect(text, `${rel} differs from ${expectedDir} (UPDATE_GOLDEN=1 to accept)`).toBe(expected.get(rel));
}
