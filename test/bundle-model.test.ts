/**
 * The bundle model (src/bundle/model.ts) and schemas/manifest.schema.json say
 * the same thing: the type's keys and required keys equal the schema's, object
 * by object (checked by the compiler on one side and against the schema on the
 * other), and a manifest missing any required field is refused.
 * Every fixture's manifest round-trips through parseManifest in golden.test.ts.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../src/compile.js';
import {
  bundleIdOf, contentOf, manifestBytes, servingDir, variantFor,
  type ManifestAttachment, type ManifestFile, type ManifestOverrun, type ManifestProfileFit, type ManifestRef, type ManifestV1, type ManifestVariant,
} from '../src/bundle/model.js';
import { parseManifest } from '../src/bundle/parse-manifest.js';
import { materialiseCase, optionsFromArgs, type Materialised } from './helpers/fixture-repo.js';

type Schema = { properties?: Record<string, Schema>; required?: string[]; additionalProperties?: Schema | boolean; $ref?: string; items?: Schema };
const schema = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'schemas', 'manifest.schema.json'), 'utf8')) as Schema & { $defs: Record<string, Schema> };
const deref = (s: Schema): Schema => (s.$ref ? schema.$defs[s.$ref.replace('#/$defs/', '')] as Schema : s);
const at = (...path: string[]): Schema => path.reduce<Schema>((s, k) => deref(k === '*' ? s.additionalProperties as Schema : k === '[]' ? s.items as Schema : (s.properties ?? {})[k] as Schema), schema);

/** Keys a value of T must have; a `Record<Keys<T>, …>` literal fails to compile when a key is added to or dropped from T. */
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
type Keys<T> = { all: Record<keyof T, true>; required: Record<RequiredKeys<T>, true> };

const TYPES: Record<string, { at: Schema } & Keys<unknown>> = {};
function declare<T>(name: string, where: Schema, keys: Keys<T>): void {
  TYPES[name] = { at: where, ...(keys as Keys<unknown>) };
}
declare<ManifestV1>('ManifestV1', schema, {
  all: { schema: true, bundle_id: true, revision: true, source: true, compiler: true, policy: true, tokenizer: true, layers: true, files: true, variants: true, attachments: true, index: true, budgets: true, diagnostics: true, conflicts: true },
  required: { schema: true, bundle_id: true, revision: true, source: true, compiler: true, policy: true, tokenizer: true, layers: true, files: true, variants: true, attachments: true, index: true, budgets: true, diagnostics: true, conflicts: true },
});
declare<ManifestV1['revision']>('revision', at('revision'), { all: { version: true, seq: true }, required: { version: true, seq: true } });
declare<ManifestV1['source']>('source', at('source'), { all: { repo: true, commit: true, dirty: true }, required: { repo: true, commit: true, dirty: true } });
declare<ManifestV1['layers']>('layers', at('layers'), { all: { local: true, user: true }, required: { local: true, user: true } });
declare<ManifestV1['diagnostics']>('diagnostics', at('diagnostics'), { all: { errors: true, warnings: true, infos: true, codes: true }, required: { errors: true, warnings: true, infos: true, codes: true } });
declare<ManifestFile>('ManifestFile', at('files', '*'), {
  all: { root: true, path: true, sha256: true, size: true, layer: true, format: true, scope: true, activation: true, tracked: true, tokens: true, globs: true, link: true },
  required: { root: true, path: true, sha256: true, size: true, layer: true, format: true, scope: true, activation: true, tracked: true },
});
declare<ManifestVariant>('ManifestVariant', at('variants', '*'), {
  all: { sources: true, bytes: true, tokens: true, sha256: true, profiles: true }, required: { sources: true, bytes: true, tokens: true, sha256: true, profiles: true },
});
declare<ManifestProfileFit>('ManifestProfileFit', at('variants', '*', 'profiles', '*'), {
  all: { bytes: true, tokens: true, fits: true, dropped: true }, required: { bytes: true, tokens: true, fits: true, dropped: true },
});
declare<ManifestAttachment>('ManifestAttachment', at('attachments', '*'), {
  all: { sources: true, globs: true, bytes: true, tokens: true, sha256: true }, required: { sources: true, globs: true, bytes: true, tokens: true, sha256: true },
});
declare<ManifestRef>('ManifestRef', at('variants', '*', 'sources', '[]'), { all: { id: true, reason: true, imported_by: true }, required: { id: true, reason: true } });
declare<ManifestOverrun>('ManifestOverrun', at('budgets', 'over', '[]'), {
  all: { kind: true, id: true, tokens: true, budget: true, layer: true }, required: { kind: true, id: true, tokens: true, budget: true },
});

const sorted = (o: object): string[] => Object.keys(o).sort();

describe('ManifestV1 and manifest.schema.json', () => {
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
    expect(parseManifest(manifestBytes(manifest)).ok).toBe(true);
  });

  it('refuses a manifest missing any required field, at any depth (re-sealed, so only the schema can catch it)', () => {
    const paths = requiredPaths(manifest, schema);
    expect(paths.length).toBeGreaterThan(40);
    for (const p of paths) {
      const copy = JSON.parse(manifestBytes(manifest)) as ManifestV1;
      let parent: Record<string, unknown> = copy as unknown as Record<string, unknown>;
      for (const k of p.slice(0, -1)) parent = parent[k] as Record<string, unknown>;
      delete parent[p[p.length - 1] as string];
      if (p.length > 1 || p[0] !== 'bundle_id') copy.bundle_id = bundleIdOf(contentOf(copy));
      const r = parseManifest(manifestBytes(copy));
      expect({ path: p.join('.'), code: r.ok ? 'accepted' : r.diagnostic.code }).toEqual({ path: p.join('.'), code: 'RC7003' });
    }
  });

  it('refuses bytes that are not canonical, and an id that does not match the content', () => {
    const text = manifestBytes(manifest);
    expect(parseManifest(`${text}\n`)).toMatchObject({ ok: false, diagnostic: { code: 'RC7002' } });
    expect(parseManifest(JSON.stringify(JSON.parse(text), null, 2))).toMatchObject({ ok: false, diagnostic: { code: 'RC7002' } });
    expect(parseManifest('{')).toMatchObject({ ok: false, diagnostic: { code: 'RC7002' } });
    const edited = JSON.parse(text) as ManifestV1;
    edited.tokenizer = 'cl100k_base';
    expect(parseManifest(manifestBytes(edited))).toMatchObject({ ok: false, diagnostic: { code: 'RC7004' } });
  });

  it('leaves provenance out of the bundle id', () => {
    const moved = { ...manifest, revision: { version: '9.9.9', seq: 99 }, source: { repo: 'x', commit: 'a'.repeat(40), dirty: true } };
    expect(bundleIdOf(contentOf(moved))).toBe(manifest.bundle_id);
    expect(parseManifest(manifestBytes(moved)).ok).toBe(true);
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
