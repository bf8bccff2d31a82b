/**
 * A bundle's manifest is a root (manifest.json) and parts it pins by digest.
 * A lazy reader reads only the parts a path needs, and refuses a tampered part
 * when it reads it; full verification (`verify: 'all'`, `.manifest`) reads and
 * refuses every one. Each kind of part is tampered in turn.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../src/compile.js';
import { writeBundle } from '../src/emit/write-bundle.js';
import { openBundle, type OpenedBundle } from '../src/bundle/open-bundle.js';
import { partFile } from '../src/bundle/layout.js';
import { canonicalJson } from '../src/util/canonical-json.js';
import { digestOf } from '../src/util/hash.js';
import { bundleIdOf, conflictPartOf, contentOf, indexPartOf, kindOfPart, variantPartOf, type ManifestRoot, type ManifestV1, type VariantsPart } from '../src/bundle/model.js';
import { CONFLICT_DETAILS_PART, CONFLICT_SOURCES_PART, type StoredDetails, type StoredRuling } from '../src/bundle/conflict-parts.js';
import { explainPath } from '../src/report/explain.js';
import { codeOf, partNames, readRoot, readWholeManifest } from './helpers/bundle-manifest.js';
import { makeTree, remove, type Made } from './security/tree.js';

const SHARED = 'Run the formatter before every commit and keep each change small enough to review in one sitting.';
let made: Made;
let dir: string;
let whole: ManifestV1;
const scratch = mkdtempSync(join(tmpdir(), 'rulec-parts-'));

beforeAll(async () => {
  made = makeTree({
    'AGENTS.md': `# Repo\n\nUse tabs for indentation.\n\n${SHARED}\n`,
    'packages/api/AGENTS.md': `# API\n\nUse two spaces for indentation.\n\n${SHARED}\n`,
    'packages/web/AGENTS.md': '# Web\n\nPrefer server components.\n',
    'docs/guide/AGENTS.md': '# Docs\n\nWrite in the second person.\n',
    '.claude/rules/api.md': '---\npaths: ["packages/api/**/*.ts"]\n---\n# API handlers\n\nValidate every request body.\n',
    'packages/api/src/a.ts': 'export {};\n',
  });
  const result = await compile({ repoDir: made.repo, outDir: join(made.dir, 'out') });
  dir = writeBundle(join(made.dir, 'out'), result);
  whole = result.manifest;
});
afterAll(() => { remove(made); rmSync(scratch, { recursive: true, force: true }); });

function copy(): string {
  const d = mkdtempSync(join(scratch, 'b-'));
  cpSync(dir, d, { recursive: true });
  return d;
}

function flip(file: string): void {
  const bytes = readFileSync(file);
  const at = Math.floor(bytes.length / 2);
  bytes[at] = (bytes[at] as number) ^ 0x01;
  writeFileSync(file, bytes);
}


/** The lazy read that needs part `name`, through the public API, keyed by what the intact part holds. */
function readThrough(b: OpenedBundle, name: string): unknown {
  const value = JSON.parse(readFileSync(join(dir, partFile(name)), 'utf8')) as unknown;
  switch (kindOfPart(name)) {
    case 'index': return b.contextFor(Object.keys(value as Record<string, string>)[0] as string);
    case 'variants': return b.entryText('variant', Object.keys((value as VariantsPart).variants)[0] as string);
    case 'files': return b.sourceBytes(Object.keys(value as object)[0] as string);
    case 'attachments': return b.attachmentsFor('packages/api/src/a.ts');
    case 'conflicts': {
      const id = (value as { id: string }[])[0]?.id as string;
      const variant = Object.entries(whole.variants).find(([v]) => whole.conflicts.some((e) => e.id === id && e.variants.includes(v)))?.[0] as string;
      return b.lookup.conflictsOf(variant);
    }
    // Only readers of the whole manifest read the details: a path's lookup never does.
    case 'conflict-details': return b.manifest;
    case 'conflict-sources': {
      const variant = Object.keys(whole.variants).find((v) => whole.conflicts.some((e) => e.variants.includes(v))) as string;
      return b.lookup.conflictsOf(variant);
    }
  }
}

describe('a bundle read part by part', () => {
  it('has every kind of part, and the manifest joined from them is the one compiled', () => {
    expect(new Set(partNames(dir).map(kindOfPart))).toEqual(new Set(['files', 'attachments', 'conflicts', 'conflict-details', 'conflict-sources', 'index', 'variants']));
    expect(canonicalJson(openBundle(dir, { verify: 'all' }).manifest)).toBe(canonicalJson(whole));
    expect(canonicalJson(readWholeManifest(dir))).toBe(canonicalJson(whole));
  });

  it('serves a path from its index parts and its variant part alone: every other part may be damaged', () => {
    const path = 'packages/api/src/a.ts';
    const variant = openBundle(dir).contextFor(path).variant;
    const needed = new Set([indexPartOf(''), indexPartOf(path), variantPartOf(variant)]);
    const d = copy();
    for (const name of partNames(d)) if (!needed.has(name)) flip(join(d, partFile(name)));
    const b = openBundle(d);
    expect(b.contextFor(path).text).toBe(openBundle(dir).contextFor(path).text);
    expect(codeOf(() => b.attachmentsFor(path))).toBe('RC7006');
    expect(codeOf(() => openBundle(d, { verify: 'all' }))).toBe('RC7006');
  });

  it('explains a path from the parts alone, as from the whole manifest', () => {
    for (const path of ['packages/api/src/a.ts', 'docs/guide/x.md', 'README.md', 'packages']) {
      expect(explainPath(openBundle(dir).lookup, path)).toEqual(explainPath(whole, path));
    }
    expect(explainPath(whole, 'packages/api/src/a.ts').conflicts.map((c) => c.kind).sort()).toEqual(['duplicate', 'override']);
  });

  it.each(['files', 'attachments', 'conflicts', 'conflict-details', 'conflict-sources', 'index', 'variants'])('refuses a tampered %s part when it is read, and when verifying all', (table) => {
    const names = partNames(dir).filter((n) => kindOfPart(n) === table);
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) {
      const d = copy();
      flip(join(d, partFile(name)));
      const lazy = openBundle(d);
      expect({ name, code: codeOf(() => readThrough(lazy, name)) }).toEqual({ name, code: 'RC7006' });
      expect({ name, code: codeOf(() => openBundle(d, { verify: 'all' })) }).toEqual({ name, code: 'RC7006' });
      expect({ name, code: codeOf(() => openBundle(d).manifest) }).toEqual({ name, code: 'RC7006' });
      expect(codeOf(() => readThrough(openBundle(dir), name))).toBeUndefined();
    }
  });

  it('refuses a part file the root does not list, or one it lists that is missing', () => {
    const extra = copy();
    const free = [...'0123456789abcdef'].map((x) => `variants-${x}`).find((n) => !partNames(extra).includes(n)) as string;
    writeFileSync(join(extra, partFile(free)), '{"conflicts":{},"variants":{}}');
    expect(codeOf(() => openBundle(extra))).toBe('RC7007');
    const missing = copy();
    rmSync(join(missing, partFile(partNames(missing)[0] as string)));
    expect(codeOf(() => openBundle(missing))).toBe('RC7001');
  });

  it('refuses a part rewritten with its new digest in a root that was not re-sealed', () => {
    const d = copy();
    const root = readRoot(d);
    const name = indexPartOf('');
    const text = readFileSync(join(d, partFile(name)), 'utf8').replace('"":"v-', '"docs":"v-');
    writeFileSync(join(d, partFile(name)), text);
    root.parts[name] = { sha256: digestOf(text), bytes: Buffer.byteLength(text) };
    writeFileSync(join(d, 'manifest.json'), canonicalJson(root));
    expect(codeOf(() => openBundle(d))).toBe('RC7004');
  });

  it('refuses, on full verification, a re-sealed bundle whose index entry sits in the wrong part', () => {
    const d = copy();
    const root = readRoot(d);
    const from = indexPartOf('packages');
    const to = Object.keys(root.parts).find((n) => kindOfPart(n) === 'index' && n !== from) as string;
    const read = (n: string): Record<string, string> => JSON.parse(readFileSync(join(d, partFile(n)), 'utf8')) as Record<string, string>;
    const [a, b] = [read(from), read(to)];
    const key = Object.keys(a)[0] as string;
    b[key] = a[key] as string;
    delete a[key];
    const write = (n: string, v: object): void => {
      const text = canonicalJson(v);
      writeFileSync(join(d, partFile(n)), text);
      root.parts[n] = { sha256: digestOf(text), bytes: Buffer.byteLength(text) };
    };
    write(from, a);
    write(to, b);
    const { bundle_id: _id, revision: _r, source: _s, ...head } = root;
    const resealed: ManifestRoot = { ...root, bundle_id: `b-${digestOf(canonicalJson(head)).slice(7, 23)}` };
    writeFileSync(join(d, 'manifest.json'), canonicalJson(resealed));
    expect(codeOf(() => openBundle(d))).toBeUndefined();
    expect(codeOf(() => openBundle(d, { verify: 'all' }))).toBe('RC7002');
  });

  it('explains a path from its index, variant and conflicts parts and its text alone: the details and every other part may be damaged', () => {
    const path = 'packages/api/src/a.ts';
    const b = openBundle(dir);
    const variant = b.contextFor(path).variant;
    const events = b.lookup.conflictsOf(variant).map((e) => e.id);
    expect(events.length).toBeGreaterThan(0);
    const needed = new Set([indexPartOf(''), indexPartOf(path), variantPartOf(variant), 'files', 'attachments', CONFLICT_SOURCES_PART, ...events.map(conflictPartOf)]);
    expect(needed.has(CONFLICT_DETAILS_PART)).toBe(false);
    const d = copy();
    for (const name of partNames(d)) if (!needed.has(name)) flip(join(d, partFile(name)));
    const lazy = openBundle(d);
    expect(explainPath(lazy.lookup, path)).toEqual(explainPath(whole, path));
    expect(lazy.contextFor(path).text).toBe(b.contextFor(path).text);
    expect(codeOf(() => openBundle(d, { verify: 'all' }))).toBe('RC7006');
  });

  it('refuses what explain reads for a path when any of it is tampered: an index part, the variant part, a conflicts part, the source list, the text', () => {
    const path = 'packages/api/src/a.ts';
    const b = openBundle(dir);
    const variant = b.contextFor(path).variant;
    const events = b.lookup.conflictsOf(variant).map((e) => e.id);
    const explain = (x: OpenedBundle): unknown => [x.contextFor(path), explainPath(x.lookup, path)];
    for (const name of [indexPartOf(path), variantPartOf(variant), CONFLICT_SOURCES_PART, ...new Set(events.map(conflictPartOf))]) {
      const d = copy();
      flip(join(d, partFile(name)));
      expect({ name, code: codeOf(() => explain(openBundle(d))) }).toEqual({ name, code: 'RC7006' });
    }
    const d = copy();
    flip(join(d, 'context', `${variant}.md`));
    expect(codeOf(() => explain(openBundle(d)))).toBe('RC7006');
  });

  it('refuses, on full verification, a re-sealed bundle whose conflicts part and details disagree', () => {
    const d = copy();
    const root = readRoot(d);
    const details = JSON.parse(readFileSync(join(d, partFile(CONFLICT_DETAILS_PART)), 'utf8')) as Record<string, StoredDetails>;
    const first = Object.values(details)[0] as StoredDetails;
    for (const list of [first.sides[0]?.layer, first.sides[0]?.rule, first.sides[0]?.scope]) list?.pop();
    const text = canonicalJson(details);
    writeFileSync(join(d, partFile(CONFLICT_DETAILS_PART)), text);
    root.parts[CONFLICT_DETAILS_PART] = { sha256: digestOf(text), bytes: Buffer.byteLength(text) };
    const { bundle_id: _id, revision: _r, source: _s, ...head } = root;
    writeFileSync(join(d, 'manifest.json'), canonicalJson({ ...root, bundle_id: `b-${digestOf(canonicalJson(head)).slice(7, 23)}` }));
    expect(codeOf(() => openBundle(d).lookup.conflictsOf(openBundle(d).contextFor('packages/api/src/a.ts').variant))).toBeUndefined();
    expect(codeOf(() => openBundle(d, { verify: 'all' }))).toBe('RC7002');
  });

  it('refuses a re-sealed conflicts part whose side names no listed source, or whose run lists differ in length: on its lazy read (RC7003) and on full verification', () => {
    const path = 'packages/api/src/a.ts';
    const variant = openBundle(dir).contextFor(path).variant;
    const id = openBundle(dir).lookup.conflictsOf(variant)[0]?.id as string;
    const forge = (edit: (run: StoredRuling['sides'][number]) => void): string => {
      const d = copy();
      const root = readRoot(d);
      const name = conflictPartOf(id);
      const part = JSON.parse(readFileSync(join(d, partFile(name)), 'utf8')) as StoredRuling[];
      edit((part.find((e) => e.id === id) as StoredRuling).sides[0] as StoredRuling['sides'][number]);
      const text = canonicalJson(part);
      writeFileSync(join(d, partFile(name)), text);
      root.parts[name] = { sha256: digestOf(text), bytes: Buffer.byteLength(text) };
      const { bundle_id: _id, revision: _r, source: _s, ...head } = root;
      writeFileSync(join(d, 'manifest.json'), canonicalJson({ ...root, bundle_id: `b-${digestOf(canonicalJson(head)).slice(7, 23)}` }));
      return d;
    };
    for (const d of [forge((run) => { run.source[0] = 9999; }), forge((run) => { run.line.push(1); })]) {
      expect(codeOf(() => openBundle(d).lookup.conflictsOf(variant))).toBe('RC7003');
      expect(codeOf(() => openBundle(d, { verify: 'all' }))).toBe('RC7002');
    }
  });

  it('gives the root the bundle id of the content (the id rule is unchanged by the split)', () => {
    expect(readRoot(dir).bundle_id).toBe(bundleIdOf(contentOf(whole)));
  });
});
