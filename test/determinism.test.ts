/**
 * Same inputs, same bytes: every fixture compiled twice — from copies at
 * different absolute paths, and (outside git) with directory listings
 * returned in a different order — gives byte-identical bundles.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { compile } from '../src/compile.js';
import { bundleFileMap } from '../src/emit/write-bundle.js';
import { fixtureCases, materialiseCase, optionsFromArgs, type Materialised } from './helpers/fixture-repo.js';

const order = vi.hoisted(() => ({ mode: 'as-is' as 'as-is' | 'reversed' | 'rotated', calls: 0, under: '\0' }));
vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>();
  const readdirSync = ((...args: Parameters<typeof actual.readdirSync>) => {
    const list = actual.readdirSync(...args) as unknown[];
    if (String(args[0]).startsWith(order.under)) order.calls++;
    if (order.mode === 'reversed') return [...list].reverse();
    if (order.mode === 'rotated') return [...list.slice(1), ...list.slice(0, 1)];
    return list;
  }) as typeof actual.readdirSync;
  return { ...actual, default: { ...actual, readdirSync }, readdirSync };
});

const made: Materialised[] = [];
afterAll(() => { for (const m of made) rmSync(m.dir, { recursive: true, force: true }); });

/** The bundle of `m`, and how many of the compile's directory listings of the repository went through the mock. */
async function bundleOf(m: Materialised): Promise<{ files: Map<string, string | Uint8Array>; digest: string; listings: number }> {
  made.push(m);
  order.calls = 0;
  order.under = m.repo;
  const r = await compile(optionsFromArgs(m));
  return { files: bundleFileMap(r), digest: r.digest, listings: order.calls };
}

describe.each(fixtureCases())('fixture %s', (name) => {
  it('is byte-identical from two different checkouts (git)', async () => {
    const a = await bundleOf(materialiseCase(name, true));
    const b = await bundleOf(materialiseCase(name, true));
    expect(b.files).toEqual(a.files);
    expect(b.digest).toBe(a.digest);
  });

  it('is byte-identical whatever order directories are listed in (no git)', async () => {
    order.mode = 'as-is';
    const a = await bundleOf(materialiseCase(name, false));
    order.mode = 'reversed';
    const b = await bundleOf(materialiseCase(name, false));
    // The control: the compiler listed the repository through the reordering mock (vi.mock needs an isolated file).
    expect(b.listings).toBeGreaterThan(0);
    order.mode = 'rotated';
    const c = await bundleOf(materialiseCase(name, false));
    order.mode = 'as-is';
    expect(b.files).toEqual(a.files);
    expect(c.files).toEqual(a.files);
    expect(c.digest).toBe(a.digest);
  });
});
