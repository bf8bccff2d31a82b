/**
 * openBundle on hostile bundles (issue #8.2): names from a forged manifest
 * never become paths outside the bundle, every file is a regular file inside
 * it, nothing extra is accepted, and `current` cannot point elsewhere.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../src/compile.js';
import { writeBundle } from '../src/emit/write-bundle.js';
import { currentBundleDir } from '../src/bundle/current-pointer.js';
import { openBundle } from '../src/bundle/open-bundle.js';
import type { ManifestV1 } from '../src/bundle/model.js';
import { codeOf, readWholeManifest, writeWholeManifest } from './helpers/bundle-manifest.js';
import { materialiseCase, optionsFromArgs, type Materialised } from './helpers/fixture-repo.js';

let m: Materialised;
let dir: string;
const scratch = mkdtempSync(join(tmpdir(), 'rulec-hostile-'));
const SECRET = 'OUTSIDE-SECRET-7f3a';

beforeAll(async () => {
  m = materialiseCase('claude-rules');
  dir = writeBundle(join(m.dir, 'out'), await compile(optionsFromArgs(m)));
  mkdirSync(join(scratch, 'outside'));
  writeFileSync(join(scratch, 'outside', 'secret.md'), `${SECRET}\n`);
});
afterAll(() => { rmSync(m.dir, { recursive: true, force: true }); rmSync(scratch, { recursive: true, force: true }); });

function copy(): string {
  const d = mkdtempSync(join(scratch, 'b-'));
  cpSync(dir, d, { recursive: true });
  return d;
}

/** Rewrite a manifest the way a forger would: edited, then written as root and parts re-sealed with a recomputed bundle id. */
function forge(d: string, edit: (m: ManifestV1) => void): void {
  const man = readWholeManifest(d);
  edit(man);
  writeWholeManifest(d, man);
}


describe('openBundle refuses hostile bundles', () => {
  it.each([
    '../../../outside/secret',
    '../outside/secret',
    'v-0000000000000000/../../outside/secret',
    '/etc/passwd',
    'v-ABCDEF0000000000',
    '__proto__',
  ])('a forged variant id %j never names a file: refused when its part is read, and when verifying all', (bad) => {
    const d = copy();
    let served = '';
    forge(d, (man) => {
      const [id, v] = Object.entries(man.variants)[0] as [string, ManifestV1['variants'][string]];
      delete man.variants[id];
      Object.defineProperty(man.variants, bad, { value: v, enumerable: true, configurable: true, writable: true });
      for (const k of Object.keys(man.index)) if (man.index[k] === id) man.index[(served = k)] = bad;
    });
    expect(codeOf(() => openBundle(d).contextFor(served))).toBe('RC7003');
    expect(codeOf(() => openBundle(d).entryText('variant', bad))).toBe('RC7003');
    expect(codeOf(() => openBundle(d, { verify: 'all' }))).toBe('RC7003');
  });

  it('a forged attachment id never names a file', () => {
    const d = copy();
    forge(d, (man) => {
      const [id, a] = Object.entries(man.attachments)[0] as [string, ManifestV1['attachments'][string]];
      delete man.attachments[id];
      man.attachments['../../outside/secret'] = a;
    });
    expect(codeOf(() => openBundle(d).attachmentsFor('src/a.ts'))).toBe('RC7003');
    expect(codeOf(() => openBundle(d, { verify: 'all' }))).toBe('RC7003');
  });

  it('a forged manifest missing a required field is refused: in the root at open, in a part when it is read', () => {
    const d = copy();
    forge(d, (man) => { delete (man as Partial<ManifestV1>).tokenizer; });
    expect(codeOf(() => openBundle(d))).toBe('RC7003');
    const e = copy();
    forge(e, (man) => { delete (Object.values(man.variants)[0] as Partial<ManifestV1['variants'][string]>).sha256; });
    expect(codeOf(() => openBundle(e).contextFor('src/a.ts'))).toBe('RC7003');
    expect(codeOf(() => openBundle(e, { verify: 'all' }))).toBe('RC7003');
  });

  it('a context replaced by a symlink to an identical file outside is refused', () => {
    const d = copy();
    const name = readdirSync(join(d, 'context'))[0] as string;
    const outside = join(scratch, `copy-${name}`);
    cpSync(join(d, 'context', name), outside);
    rmSync(join(d, 'context', name));
    symlinkSync(outside, join(d, 'context', name));
    expect(codeOf(() => openBundle(d))).toBe('RC7007');
    expect(codeOf(() => openBundle(d, { verify: 'all' }))).toBe('RC7007');
  });

  it('a manifest that is a symlink to an identical file is refused', () => {
    const d = copy();
    const outside = join(scratch, `manifest-${Math.random()}.json`);
    renameSync(join(d, 'manifest.json'), outside);
    symlinkSync(outside, join(d, 'manifest.json'));
    expect(codeOf(() => openBundle(d))).toBe('RC7007');
  });

  it('context/ replaced by a symlinked directory is refused', () => {
    const d = copy();
    const outside = mkdtempSync(join(scratch, 'ctx-'));
    cpSync(join(d, 'context'), outside, { recursive: true });
    rmSync(join(d, 'context'), { recursive: true });
    symlinkSync(outside, join(d, 'context'));
    expect(codeOf(() => openBundle(d))).toBe('RC7007');
  });

  it.each(['README.md', '.hidden', 'manifest.json.bak'])('an extra file %s at the bundle root is refused', (name) => {
    const d = copy();
    writeFileSync(join(d, name), 'extra');
    expect(codeOf(() => openBundle(d))).toBe('RC7007');
  });

  it('an extra directory at the bundle root, or inside context/, is refused', () => {
    const d = copy();
    mkdirSync(join(d, 'more'));
    expect(codeOf(() => openBundle(d))).toBe('RC7007');
    const e = copy();
    mkdirSync(join(e, 'context', 'v-0000000000000000.md'));
    expect(codeOf(() => openBundle(e))).toBe('RC7007');
  });

  it('a FIFO in place of a context never stalls the reader', () => {
    const d = copy();
    const name = readdirSync(join(d, 'context'))[0] as string;
    rmSync(join(d, 'context', name));
    execFileSync('mkfifo', [join(d, 'context', name)]);
    expect(codeOf(() => openBundle(d, { verify: 'all' }))).toBe('RC7007');
  });
});

describe('the current pointer', () => {
  it('names a bundle beside it', () => {
    expect(currentBundleDir(join(m.dir, 'out'))).toBe(dir);
    expect(currentBundleDir(join(scratch, 'nothing-here'))).toBeNull();
  });

  it('is followed when given itself (bundles/current), and refused there as it is beside a bundles directory', () => {
    expect(currentBundleDir(join(m.dir, 'out', 'current'))).toBe(dir);
    const out = mkdtempSync(join(scratch, 'out-'));
    writeFileSync(join(out, 'current'), '../outside');
    expect(codeOf(() => currentBundleDir(join(out, 'current')))).toBe('RC7008');
    // A link named current is no pointer: nothing is followed, and opening it is refused as no bundle.
    const linked = mkdtempSync(join(scratch, 'out-'));
    symlinkSync(join(m.dir, 'out', 'current'), join(linked, 'current'));
    expect(currentBundleDir(join(linked, 'current'))).toBeNull();
    expect(codeOf(() => openBundle(join(linked, 'current')))).toMatch(/^RC700/);
  });

  it('a bundles directory, or its pointer, given as a bundle is refused with what to open instead', () => {
    const out = join(m.dir, 'out');
    expect(codeOf(() => openBundle(out))).toBe('RC7007');
    expect(() => openBundle(out)).toThrow(`${out} is a bundles directory (it holds `);
    expect(() => openBundle(out)).toThrow('not a bundle: open a bundle inside it, such as the one its current pointer names (currentBundleDir() gives its directory)');
    expect(() => openBundle(join(out, 'current'))).toThrow(`${join(out, 'current')} is not a directory (a file): a current pointer; open the bundle it names`);
    // Without a pointer, the bundles beside each other are named the same way.
    const bare = mkdtempSync(join(scratch, 'out-'));
    cpSync(dir, join(bare, readdirSync(out).find((n) => n.startsWith('b-')) as string), { recursive: true });
    expect(() => openBundle(bare)).toThrow(`${bare} is a bundles directory (it holds b-`);
    expect(openBundle(currentBundleDir(out) as string).bundleId).toMatch(/^b-[0-9a-f]{16}$/);
  });

  it('a file where a bundle should be is refused by its own path', () => {
    writeFileSync(join(scratch, 'not-a-bundle'), 'x');
    expect(() => openBundle(join(scratch, 'not-a-bundle'), { verify: 'all' })).toThrow(`${join(scratch, 'not-a-bundle')} is not a directory (a file)`);
  });

  it.each(['../outside', '/etc', 'b-0123456789abcdef/../../outside', 'b-0123456789ABCDEF', '', 'b-0123456789abcdef\nb-0123456789abcdee'])(
    'refuses a pointer holding %j', (text) => {
      const out = mkdtempSync(join(scratch, 'out-'));
      writeFileSync(join(out, 'current'), text);
      expect(codeOf(() => currentBundleDir(out))).toBe('RC7008');
    });

  it('refuses a pointer that is a symlink', () => {
    const out = mkdtempSync(join(scratch, 'out-'));
    writeFileSync(join(scratch, 'pointer'), 'b-0123456789abcdef\n');
    symlinkSync(join(scratch, 'pointer'), join(out, 'current'));
    expect(codeOf(() => currentBundleDir(out))).toBe('RC7008');
  });
});
