/**
 * A reader's memo of resolved directories (ResolveMemo) answers what a walk of the whole path
 * answers: the same file, the same refusals — the 40-link limit counts the links of the directory
 * and of the name below it together.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveBeneath, type ResolveMemo } from '../../src/confined/resolve-beneath.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'rulec-resolve-memo-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** d0 -> real, d1 -> d0 … and real/g0 -> f, real/g1 -> g0 …: `dN/gM` takes N + M links (plus the two first). */
mkdirSync(join(root, 'real'));
writeFileSync(join(root, 'real', 'f'), 'x\n');
symlinkSync('real', join(root, 'd0'));
for (let i = 1; i <= 25; i++) symlinkSync(`d${i - 1}`, join(root, `d${i}`));
symlinkSync('f', join(root, 'real', 'g0'));
for (let i = 1; i <= 25; i++) symlinkSync(`g${i - 1}`, join(root, 'real', `g${i}`));

const kind = (rel: string, memo?: ResolveMemo): string => {
  const r = resolveBeneath(root, rel, memo);
  return r.kind === 'file' || r.kind === 'dir' ? `${r.kind} ${r.realRel}` : r.kind;
};

describe('resolveBeneath with a memo', () => {
  it.each(['d25/g25', 'd10/g10', 'd25/f', 'real/g25', 'd3/missing', 'd3/g2', 'real'])('%s resolves as the whole walk does', (rel) => {
    const memo: ResolveMemo = new Map();
    kind('d25/f', memo); // the directory walked first, into the memo
    expect(kind(rel, memo)).toBe(kind(rel));
  });

  it('counts the directory\'s links and the name\'s together (52 links: a loop)', () => {
    expect(kind('d25/g25')).toBe('loop');
    expect(kind('d10/g10')).toBe('file real/f');
  });
});
