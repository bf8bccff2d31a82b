/**
 * The bundle model (src/bundle/model.ts) and schemas/manifest.schema.json say
 * the same thing: each type's keys and required keys equal the schema's (the
 * root's, or a part's in $defs), object by object (checked by the compiler on one side and against the schema on the
 * other), and a manifest missing any required field is refused.
 * Every fixture's manifest round-trips through parseManifest in golden.test.ts.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../src/compile.js';
import {
  bundleIdOf, contentOf, manifestBytes,
  type ManifestAttachment, type ManifestFile, type ManifestOverrun, type ManifestPartRef, type ManifestProfileFit, type ManifestRef, type ManifestRoot,
  type ManifestV1, type ManifestVariant, type VariantsPart,
} from '../src/bundle/model.js';
import { servingDir, variantFor } from '../src/bundle/serving.js';
import type { DetailRun, SideRun, StoredDetails, StoredRuling } from '../src/bundle/conflict-parts.js';
import { parseManifest, parseManifestRoot } from '../src/bundle/parse-manifest.js';
import { canonicalJson } from '../src/util/canonical-json.js';
import { filesOf } from './helpers/bundle-manifest.js';
import { materialiseCase, optionsFromArgs, type Materialised } from './helpers/fixture-repo.js';

type Schema = { properties?: Record<string, Schema>; required?: string[]; additionalProperties?: Schema | boolean; $ref?: string; items?: Schema };
const schema = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'schemas', 'manifest.schema.json'), 'utf8')) as Schema & { $defs: Record<string, Schema> };
const deref = (s: Schema): Schema => (s.$ref ? schema.$defs[s.$ref.replace('#/$defs/', '')] as Schema : s);
const step = (s: Schema, k: string): Schema => deref(k === '*' ? s.additionalProperties as Schema : k === '[]' ? s.items as Schema : (s.properties ?? {})[k] as Schema);
const at = (...path: string[]): Schema => path.reduce<Schema>(step, schema);
/** Inside the schema of part `table` (`$defs.part_<table>`). */
const inPart = (table: string, ...path: string[]): Schema => path.reduce<Schema>(step, schema.$defs[`part_${table}`] as Schema);
/** A conflict event in memory (conflict-event.schema.json, its side inlined): its parts store it split in two (conflict-parts.ts). */
const eventSchema = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'schemas', 'conflict-event.schema.json'), 'utf8')) as Schema & { $defs: { side: Schema } };
const event: Schema = { ...eventSchema, properties: { ...eventSchema.properties, sides: { ...eventSchema.properties?.sides, items: eventSchema.$defs.side } } };
/** The schema of the whole manifest as held in memory: the root's fields but the part list, and each table's part schema. */
const wholeSchema: Schema = {
  properties: {
    ...Object.fromEntries(Object.entries(schema.properties ?? {}).filter(([k]) => k !== 'parts' && k !== 'entries')),
    files: inPart('files'), variants: inPart('variants', 'variants'), attachments: inPart('attachments'), index: inPart('index'), conflicts: { items: event },
  },
  required: [...(schema.required ?? []).filter((k) => k !== 'parts' && k !== 'entries'), 'files', 'variants', 'attachments', 'index', 'conflicts'],
};

/** Keys a value of T must have; a `Record<Keys<T>, …>` literal fails to compile when a key is added to or dropped from T. */
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
type Keys<T> = { all: Record<keyof T, true>; required: Record<RequiredKeys<T>, true> };

const TYPES: Record<string, { at: Schema } & Keys<unknown>> = {};
function declare<T>(name: string, where: Schema, keys: Keys<T>): void {
  TYPES[name] = { at: where, ...(keys as Keys<unknown>) };
}
declare<ManifestRoot>('ManifestRoot', schema, {
  all: { schema: true, bundle_id: true, revision: true, source: true, compiler: true, policy: true, tokenizer: true, layers: true, parts: true, entries: true, budgets: true, diagnostics: true },
  required: { schema: true, bundle_id: true, revision: true, source: true, compiler: true, policy: true, tokenizer: true, layers: true, parts: true, entries: true, budgets: true, diagnostics: true },
});
declare<ManifestPartRef>('ManifestPartRef', at('parts', '*'), { all: { sha256: true, bytes: true }, required: { sha256: true, bytes: true } });
declare<ManifestRoot['entries']>('entries', at('entries'), { all: { context: true, attachments: true, sources: true }, required: { context: true, attachments: true, sources: true } });
declare<ManifestV1['revision']>('revision', at('revision'), { all: { version: true, seq: true }, required: { version: true, seq: true } });
declare<ManifestV1['source']>('source', at('source'), { all: { repo: true, commit: true, dirty: true }, required: { repo: true, commit: true, dirty: true } });
declare<ManifestV1['layers']>('layers', at('layers'), { all: { local: true, user: true }, required: { local: true, user: true } });
declare<ManifestV1['diagnostics']>('diagnostics', at('diagnostics'), { all: { errors: true, warnings: true, infos: true, codes: true }, required: { errors: true, warnings: true, infos: true, codes: true } });
declare<ManifestFile>('ManifestFile', inPart('files', '*'), {
  all: { root: true, path: true, sha256: true, size: true, layer: true, format: true, scope: true, activation: true, tracked: true, tokens: true, globs: true, link: true },
  required: { root: true, path: true, sha256: true, size: true, layer: true, format: true, scope: true, activation: true, tracked: true },
});
declare<VariantsPart>('VariantsPart', inPart('variants'), { all: { variants: true, conflicts: true }, required: { variants: true, conflicts: true } });
declare<ManifestVariant>('ManifestVariant', inPart('variants', 'variants', '*'), {
  all: { sources: true, bytes: true, tokens: true, sha256: true, profiles: true }, required: { sources: true, bytes: true, tokens: true, sha256: true, profiles: true },
});
declare<ManifestProfileFit>('ManifestProfileFit', inPart('variants', 'variants', '*', 'profiles', '*'), {
  all: { bytes: true, tokens: true, fits: true, dropped: true }, required: { bytes: true, tokens: true, fits: true, dropped: true },
});
declare<ManifestAttachment>('ManifestAttachment', inPart('attachments', '*'), {
  all: { sources: true, globs: true, bytes: true, tokens: true, sha256: true }, required: { sources: true, globs: true, bytes: true, tokens: true, sha256: true },
});
declare<ManifestRef>('ManifestRef', inPart('variants', 'variants', '*', 'sources', '[]'), { all: { id: true, reason: true, imported_by: true }, required: { id: true, reason: true } });
declare<StoredRuling>('StoredRuling', inPart('conflicts', '[]'), {
  all: { id: true, kind: true, topic: true, severity: true, adopted: true, ruling: true, reason: true, sides: true },
  required: { id: true, kind: true, topic: true, severity: true, adopted: true, ruling: true, reason: true, sides: true },
});
declare<SideRun>('SideRun', inPart('conflicts', '[]', 'sides', '[]'), { all: { value: true, source: true, line: true, col: true }, required: { value: true, source: true, line: true, col: true } });
declare<StoredDetails>('StoredDetails', inPart('conflict_details', '*'), {
  all: { type: true, variants: true, paths: true, wasted_tokens: true, accepted: true, sides: true }, required: { type: true, variants: true, paths: true, sides: true },
});
declare<DetailRun>('DetailRun', inPart('conflict_details', '*', 'sides', '[]'), { all: { excerpt: true, layer: true, rule: true, scope: true }, required: { excerpt: true, layer: true, rule: true, scope: true } });
declare<ManifestOverrun>('ManifestOverrun', at('budgets', 'over', '[]'), {
  all: { kind: true, id: true, tokens: true, budget: true, layer: true }, required: { kind: true, id: true, tokens: true, budget: true },
});

const sorted = (o: object): string[] => Object.keys(o).sort();

describe('the manifest types and manifest.schema.json', () => {
  it.each(Object.keys(TYPES))('%s has the schema\'s keys and required keys', (name) => {
    const t = TYPES[name] as (typeof TYPES)[string];
    expect(sorted(t.all)).toEqual(sorted(t.at.properties ?? {}));
    expect(sorted(t.required)).toEqual([...(t.at.required ?? [])].sort());
  });
});

let m: Materialised;
let manifest: ManifestV1;
beforeAll(async () => {
  m = materialiseCase('managed');
  manifest = (await compile(optionsFromArgs(m))).manifest;
});
afterAll(() => rmSync(m.dir, { recursive: true, force: true }));

/** Every path to a required field in this manifest instance, found by walking the schema beside it. */
function requiredPaths(value: unknown, s: Schema, path: string[] = []): string[][] {
  s = deref(s);
  if (Array.isArray(value)) return value.flatMap((v, i) => (s.items ? requiredPaths(v, s.items, [...path, String(i)]) : []));
  if (value === null || typeof value !== 'object') return [];
  const out = (s.required ?? []).filter((k) => k in value).map((k) => [...path, k]);
  for (const [k, v] of Object.entries(value)) {
    const sub = s.properties?.[k] ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined);
    if (sub) out.push(...requiredPaths(v, sub, [...path, k]));
  }
  return out;
}

describe('parseManifest', () => {
  it('accepts what compile builds', () => {
    expect(parseManifest(filesOf(manifest)).ok).toBe(true);
  });

  it('refuses a manifest missing any required field, at any depth (re-sealed, so only the schema can catch it)', () => {
    // A whole table cannot be missing on disk (it is its parts); everything inside one can.
    const tables = new Set(['files', 'variants', 'attachments', 'index', 'conflicts']);
    const paths = requiredPaths(manifest, wholeSchema).filter((p) => !(p.length === 1 && tables.has(p[0] as string)));
    expect(paths.length).toBeGreaterThan(40);
    // Every field of a conflict event and of its sides, wherever its part stores it.
    expect(new Set(paths.filter((p) => p[0] === 'conflicts').map((p) => p.filter((k) => !/^\d+$/.test(k)).join('.')))).toEqual(new Set([
      ...(eventSchema.required ?? []).map((k) => `conflicts.${k}`), 'conflicts.paths.count', 'conflicts.paths.examples',
      ...(eventSchema.$defs.side.required ?? []).map((k) => `conflicts.sides.${k}`),
    ]));
    for (const p of paths) {
      const copy = JSON.parse(canonicalJson(manifest)) as ManifestV1;
      let parent: Record<string, unknown> = copy as unknown as Record<string, unknown>;
      for (const k of p.slice(0, -1)) parent = parent[k] as Record<string, unknown>;
      delete parent[p[p.length - 1] as string];
      if (p.length > 1 || p[0] !== 'bundle_id') copy.bundle_id = bundleIdOf(contentOf(copy));
      const r = parseManifest(filesOf(copy));
      expect({ path: p.join('.'), code: r.ok ? 'accepted' : r.diagnostic.code }).toEqual({ path: p.join('.'), code: 'RC7003' });
    }
  });

  it('refuses bytes that are not canonical, and an id that does not match the content', () => {
    const text = manifestBytes(manifest);
    expect(parseManifestRoot(`${text}\n`)).toMatchObject({ ok: false, diagnostic: { code: 'RC7002' } });
    expect(parseManifestRoot(JSON.stringify(JSON.parse(text), null, 2))).toMatchObject({ ok: false, diagnostic: { code: 'RC7002' } });
    expect(parseManifestRoot('{')).toMatchObject({ ok: false, diagnostic: { code: 'RC7002' } });
    const edited = JSON.parse(text) as ManifestRoot;
    edited.tokenizer = 'cl100k_base';
    expect(parseManifestRoot(canonicalJson(edited))).toMatchObject({ ok: false, diagnostic: { code: 'RC7004' } });
  });

  it('leaves provenance out of the bundle id', () => {
    const moved = { ...manifest, revision: { version: '9.9.9', seq: 99 }, source: { repo: 'x', commit: 'a'.repeat(40), dirty: true } };
    expect(bundleIdOf(contentOf(moved))).toBe(manifest.bundle_id);
    expect(parseManifest(filesOf(moved)).ok).toBe(true);
  });
});

describe('variantFor', () => {
  const index = Object.assign(Object.create(null) as Record<string, string>, {
    '': 'v-0000000000000000', src: 'v-1111111111111111', 'src/deep/er': 'v-2222222222222222', toString: 'v-3333333333333333',
  });
  it.each([
    ['', 'v-0000000000000000'], ['README.md', 'v-0000000000000000'], ['src', 'v-1111111111111111'], ['src/a.ts', 'v-1111111111111111'],
    ['src/deep/a.ts', 'v-1111111111111111'], ['src/deep/er', 'v-2222222222222222'], ['src/deep/er/x/y.ts', 'v-2222222222222222'],
    ['toString/a.ts', 'v-3333333333333333'], ['__proto__/a.ts', 'v-0000000000000000'], ['constructor', 'v-0000000000000000'],
    ['valueOf/x', 'v-0000000000000000'],
  ])('%j → %s', (path, id) => {
    expect(variantFor(index, path)).toBe(id);
  });
  it('answers the same for a plain-object index parsed from JSON (own keys only)', () => {
    const parsed = JSON.parse(JSON.stringify(index)) as Record<string, string>;
    expect(variantFor(parsed, 'hasOwnProperty/x')).toBe('v-0000000000000000');
    expect(servingDir(parsed, 'toString/a/b')).toBe('toString');
  });
});
