/**
 * A bundle carries the raw bytes of its sources as content-addressed blobs
 * (sources/<sha256 hex>), so `rulec diff` can read rules from a bundle
 * directory alone; openBundle verifies them like every other file and refuses
 * a blob that is extra, missing, changed or a link.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile, type CompileResult } from '../../src/compile.js';
import { writeBundle } from '../../src/emit/write-bundle.js';
import { BundleError } from '../../src/bundle/bundle-error.js';
import { openBundle } from '../../src/bundle/open-bundle.js';
import { sha256Hex } from '../../src/util/hash.js';
import { materialiseCase, optionsFromArgs, type Materialised } from '../helpers/fixture-repo.js';

let m: Materialised;
let result: CompileResult;
let dir: string;
const scratch = mkdtempSync(join(tmpdir(), 'rulec-blobs-'));

beforeAll(async () => {
  m = materialiseCase('managed');
  result = await compile(optionsFromArgs(m));
  dir = writeBundle(join(m.dir, 'out'), result);
});
afterAll(() => { rmSync(m.dir, { recursive: true, force: true }); rmSync(scratch, { recursive: true, force: true }); });

function copy(): string {
  const d = mkdtempSync(join(scratch, 'b-'));
  cpSync(dir, d, { recursive: true });
  return d;
}

const codeOf = (f: () => unknown): string | undefined => {
  try {
    f();
    return undefined;
  } catch (e) {
    expect(e).toBeInstanceOf(BundleError);
    return (e as BundleError).code;
  }
};

describe('source blobs', () => {
  it('holds one blob per distinct source content, named by its sha256, with the exact bytes', () => {
    const files = Object.values(result.manifest.files);
    const want = [...new Set(files.map((f) => f.sha256.slice(7)))].sort();
    expect(readdirSync(join(dir, 'sources')).sort()).toEqual(want);
    for (const name of want) expect(sha256Hex(readFileSync(join(dir, 'sources', name)))).toBe(name);
    // Managed sources are carried too: the bundle alone is enough to read every rule.
    expect(Object.keys(result.manifest.files).some((id) => id.startsWith('managed://'))).toBe(true);
  });

  it('serves a source by id, verified, and null for an id the manifest does not list', () => {
    const b = openBundle(dir, { verify: 'all' });
    for (const f of result.discovered.files) expect(Buffer.from(b.sourceBytes(f.id) ?? [])).toEqual(Buffer.from(f.bytes));
    expect(b.sourceBytes('no/such/AGENTS.md')).toBeNull();
    expect(b.sourceBytes('__proto__')).toBeNull();
  });

  it('refuses a changed blob when served and when verifying all (RC7006)', () => {
    const d = copy();
    const [id, f] = Object.entries(result.manifest.files)[0] as [string, { sha256: string; size: number }];
    const file = join(d, 'sources', f.sha256.slice(7));
    const bytes = readFileSync(file);
    bytes[0] = (bytes[0] as number) ^ 0x20;
    writeFileSync(file, bytes);
    expect(codeOf(() => openBundle(d, { verify: 'all' }))).toBe('RC7006');
    const lazy = openBundle(d);
    expect(codeOf(() => lazy.sourceBytes(id))).toBe('RC7006');
  });

  it('refuses an extra, a missing, a resized or a linked blob', () => {
    const extra = copy();
    writeFileSync(join(extra, 'sources', 'a'.repeat(64)), 'injected');
    expect(codeOf(() => openBundle(extra))).toBe('RC7007');
    const missing = copy();
    rmSync(join(missing, 'sources', readdirSync(join(missing, 'sources'))[0] as string));
    expect(codeOf(() => openBundle(missing))).toBe('RC7001');
    const grown = copy();
    const name = readdirSync(join(grown, 'sources'))[0] as string;
    writeFileSync(join(grown, 'sources', name), Buffer.concat([readFileSync(join(grown, 'sources', name)), Buffer.from('\nmore\n')]));
    // Sizes sit in the files part: refused when the blob is served, or at once when verifying all.
    expect(codeOf(() => openBundle(grown, { verify: 'all' }))).toBe('RC7006');
    const grownId = Object.keys(result.manifest.files).find((id) => result.manifest.files[id]?.sha256 === `sha256:${name}`) as string;
    expect(codeOf(() => openBundle(grown).sourceBytes(grownId))).toBe('RC7006');
    const linked = copy();
    const target = join(scratch, `outside-${name}`);
    cpSync(join(linked, 'sources', name), target);
    rmSync(join(linked, 'sources', name));
    symlinkSync(target, join(linked, 'sources', name));
    expect(codeOf(() => openBundle(linked))).toBe('RC7007');
    const dirLink = copy();
    rmSync(join(dirLink, 'sources'), { recursive: true });
    symlinkSync(join(dir, 'sources'), join(dirLink, 'sources'));
    expect(codeOf(() => openBundle(dirLink))).toBe('RC7007');
  });
});
