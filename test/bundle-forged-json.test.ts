/**
 * openBundle on manifests whose bytes are JSON but not canonical JSON data:
 * numbers that are not safe integers and bytes that are not UTF-8 are refused
 * (RC7002) as bad input, in the root at open and in a part when it is read,
 * never an internal error; and a source blob's size is stated once, so every
 * files entry is checked against the blob's bytes, lazily as in full.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../src/compile.js';
import { writeBundle } from '../src/emit/write-bundle.js';
import { BundleError } from '../src/bundle/bundle-error.js';
import { openBundle } from '../src/bundle/open-bundle.js';
import { partFile } from '../src/bundle/layout.js';
import { variantPartOf } from '../src/bundle/model.js';
import { canonicalJson } from '../src/util/canonical-json.js';
import { digestOf } from '../src/util/hash.js';
import { codeOf, readRoot, readWholeManifest, writeWholeManifest } from './helpers/bundle-manifest.js';
import { runCli } from './helpers/run-cli.js';
import { makeTree, remove, type Made } from './security/tree.js';

const SAME = '# Rules\n\nUse tabs for indentation.\n';
let made: Made;
let dir: string;
const scratch = mkdtempSync(join(tmpdir(), 'rulec-forged-json-'));

beforeAll(async () => {
  // AGENTS.md and CLAUDE.md hold the same bytes: two files entries, one source blob.
  made = makeTree({ 'AGENTS.md': SAME, 'CLAUDE.md': SAME, 'src/a.ts': 'export {};\n' });
  dir = writeBundle(join(made.dir, 'out'), await compile({ repoDir: made.repo, outDir: join(made.dir, 'out') }));
});
afterAll(() => { remove(made); rmSync(scratch, { recursive: true, force: true }); });

function copy(): string {
  const d = mkdtempSync(join(scratch, 'b-'));
  cpSync(dir, d, { recursive: true });
  return d;
}

/** Replace `from` with `to` in manifest.json's bytes, as is (no re-seal). */
function editRoot(d: string, from: string, to: Buffer): void {
  const bytes = readFileSync(join(d, 'manifest.json'));
  const at = bytes.indexOf(from);
  expect(at).toBeGreaterThan(-1);
  writeFileSync(join(d, 'manifest.json'), Buffer.concat([bytes.subarray(0, at), to, bytes.subarray(at + from.length)]));
}

/** Replace `from` with `to` in part `name`'s bytes, then re-pin the part and re-seal the root as a forger would. */
function forgePart(d: string, name: string, from: RegExp, to: Buffer): void {
  const text = readFileSync(join(d, partFile(name)), 'latin1');
  const match = from.exec(text);
  expect(match).not.toBeNull();
  const at = (match as RegExpExecArray).index;
  const bytes = Buffer.concat([Buffer.from(text.slice(0, at), 'latin1'), to, Buffer.from(text.slice(at + (match as RegExpExecArray)[0].length), 'latin1')]);
  writeFileSync(join(d, partFile(name)), bytes);
  const root = readRoot(d);
  root.parts[name] = { sha256: digestOf(bytes), bytes: bytes.length };
  const { bundle_id: _id, revision: _r, source: _s, ...head } = root;
  writeFileSync(join(d, 'manifest.json'), canonicalJson({ ...root, bundle_id: `b-${digestOf(canonicalJson(head)).slice(7, 23)}` }));
}

/** The error `f` throws. */
function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  return undefined;
}

describe('numbers that are not safe integers', () => {
  it.each(['1.5', '1e20', '1e400', '-1e400'])('in manifest.json (%s) are a refused bundle (RC7002), through the library and the CLI', async (n) => {
    const d = copy();
    editRoot(d, '"errors":0', Buffer.from(`"errors":${n}`));
    const e = thrown(() => openBundle(d));
    expect(e).toBeInstanceOf(BundleError);
    expect((e as BundleError).code).toBe('RC7002');
    for (const args of [['explain', 'src/a.ts', '--bundle', d], ['diff', `bundle:${d}`, `bundle:${dir}`]]) {
      const r = await runCli(args, made.repo);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('RC7002');
      expect(r.stderr).not.toContain('RC9001');
    }
  });

  it.each(['1e20', '1e400', '2.5'])('in a re-sealed part (tokens %s) are refused when the part is read, lazily too, and on full verification', (n) => {
    const d = copy();
    const variant = openBundle(dir).contextFor('src/a.ts').variant;
    forgePart(d, variantPartOf(variant), /"tokens":\d+/, Buffer.from(`"tokens":${n}`));
    const lazy = openBundle(d);
    expect(codeOf(() => lazy.contextFor('src/a.ts'))).toBe('RC7002');
    expect(codeOf(() => openBundle(d, { verify: 'all' }))).toBe('RC7002');
  });

  it('nor does nesting too deep to encode again: refused (RC7002), never a stack overflow', () => {
    const d = copy();
    editRoot(d, '"over":[]', Buffer.from(`"over":${'['.repeat(100_000)}${']'.repeat(100_000)}`));
    expect(codeOf(() => openBundle(d))).toBe('RC7002');
  });
});

describe('bytes that are not UTF-8', () => {
  it('in manifest.json are refused (RC7002): two different byte strings never read as one manifest', () => {
    const version = `"version":"${readRoot(dir).revision.version}`;
    for (const byte of [0xff, 0xfe]) {
      const d = copy();
      editRoot(d, version, Buffer.concat([Buffer.from(version), Buffer.from([byte])]));
      expect(codeOf(() => openBundle(d))).toBe('RC7002');
    }
  });

  it('in a re-sealed part are refused when the part is read, lazily too, and on full verification', () => {
    const d = copy();
    forgePart(d, 'files', /"path":"AGENTS\.md/, Buffer.concat([Buffer.from('"path":"AGENTS.md'), Buffer.from([0xff])]));
    expect(codeOf(() => openBundle(d).sourceBytes('AGENTS.md'))).toBe('RC7002');
    expect(codeOf(() => openBundle(d, { verify: 'all' }))).toBe('RC7002');
  });
});

describe('files sharing one source blob', () => {
  it('are two entries of the files part with one blob', () => {
    const m = readWholeManifest(dir);
    expect(m.files['CLAUDE.md']?.sha256).toBe(m.files['AGENTS.md']?.sha256);
    expect(openBundle(dir, { verify: 'all' }).sourceBytes('CLAUDE.md')?.toString()).toBe(SAME);
  });

  it('refuse a forged size on either entry, whatever is read first, lazily and on full verification', () => {
    for (const forged of ['AGENTS.md', 'CLAUDE.md']) {
      const d = copy();
      const m = readWholeManifest(d);
      (m.files[forged] as { size: number }).size = 999;
      writeWholeManifest(d, m);
      expect({ forged, code: codeOf(() => openBundle(d, { verify: 'all' })) }).toEqual({ forged, code: 'RC7003' });
      for (const order of [['AGENTS.md', 'CLAUDE.md'], ['CLAUDE.md', 'AGENTS.md']]) {
        const lazy = openBundle(d);
        expect({ forged, order, codes: order.map((id) => codeOf(() => lazy.sourceBytes(id))) }).toEqual({ forged, order, codes: ['RC7003', 'RC7003'] });
      }
    }
  });

  it('refuse a size both entries forge alike: the blob does not have it (RC7006)', () => {
    const d = copy();
    const m = readWholeManifest(d);
    for (const id of ['AGENTS.md', 'CLAUDE.md']) (m.files[id] as { size: number }).size = 999;
    writeWholeManifest(d, m);
    expect(codeOf(() => openBundle(d, { verify: 'all' }))).toBe('RC7006');
    expect(codeOf(() => openBundle(d).sourceBytes('CLAUDE.md'))).toBe('RC7006');
  });
});
