/**
 * Every stage result is plain data (issue #9.4): no function, no class
 * instance, nothing a cache could not store or a diff not compare. Each
 * fixture repo is compiled, and each stage is also run on its own as
 * compile() runs it, so the results compile() does not return are checked
 * too; each must hold nothing notPlain() objects to and survive
 * structuredClone unchanged. A stage's result has one shape,
 * StageResult<T>: `{ value, diagnostics }` and nothing else.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compile } from '../src/compile.js';
import { loadPolicy } from '../src/config/load-policy.js';
import { readInputs } from '../src/discover/read-inputs.js';
import { discover } from '../src/discover/discover.js';
import { followImports } from '../src/discover/follow-imports.js';
import { parseDoc } from '../src/parse/parse-doc.js';
import { parseDocs } from '../src/parse/parse-docs.js';
import { resolve } from '../src/resolve/resolve.js';
import { activationOf } from '../src/resolve/activation.js';
import { expandImports } from '../src/resolve/expand-imports.js';
import { render } from '../src/render/render.js';
import { checkBudgets } from '../src/validate/budgets.js';
import { tokenCounter } from '../src/validate/token-count.js';
import { finishConflicts, scanConflicts } from '../src/conflicts/detect.js';
import { topicsFor } from '../src/conflicts/topics-for.js';
import { profileJob } from '../src/profiles/profile-job.js';
import { evaluateProfileJob } from '../src/profiles/build-view.js';
import { parseApprovals } from '../src/diff/approvals.js';
import { importRoots } from '../src/discover/read-inputs.js';
import { sharedCase } from './helpers/fixture-repo.js';
import { notPlain } from './helpers/plain-data.js';

/** A JSON-able picture of a value that tells Map, Set and bytes apart: what a round trip must preserve. */
function picture(v: unknown): unknown {
  if (v instanceof Map) return { map: [...v].map(([k, x]) => [picture(k), picture(x)]) };
  if (v instanceof Set) return { set: [...v].map(picture) };
  if (ArrayBuffer.isView(v)) return { bytes: Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex') };
  if (Array.isArray(v)) return v.map(picture);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, picture(x)]));
  return v;
}

function expectPlain(name: string, value: unknown): void {
  expect(notPlain(value, name)).toEqual([]);
  expect(picture(structuredClone(value)), name).toEqual(picture(value));
}

/** Plain, and in the one shape of a stage result. */
function expectStage(name: string, result: object): void {
  expect(Object.keys(result).sort(), name).toEqual(['diagnostics', 'value']);
  expectPlain(name, result);
}

const CASES: [string, boolean][] = [['imports', false], ['managed', false], ['claude-local', true], ['claude-rules', false], ['override', false]];

describe('stage results are plain data', () => {
  it('notPlain() finds a function, a class instance and a cycle wherever they sit', () => {
    class Matcher {
      test(): boolean {
        return true;
      }
    }
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(notPlain({ a: [1, { isExcluded: (p: string) => p === '' }] })).toEqual(['$.a[1].isExcluded: function isExcluded']);
    expect(notPlain({ m: new Map([['k', new Matcher()]]) })).toEqual(['$.m.get(k): instance of Matcher']);
    expect(notPlain(cyclic)).toEqual(['$.self: cycle']);
    expect(notPlain({ bytes: new Uint8Array(2), s: new Set(['x']), n: null })).toEqual([]);
  });

  it.each(CASES)('compile() of fixture %s returns nothing but data', async (name, includeLocal) => {
    const m = sharedCase(name);
    const result = await compile({ repoDir: m.repo, managedDir: m.managed ?? undefined, includeLocal, outDir: join(m.dir, 'out'), today: '2026-01-01' });
    for (const [key, value] of Object.entries(result)) expectPlain(`result.${key}`, value);
    expectStage('result.conflicts', result.conflicts);
  });

  it('parseApprovals returns a stage result, used or refused', () => {
    const head = 'a'.repeat(40);
    expectStage('parseApprovals', parseApprovals(JSON.stringify({ head, approvers: ['alice'], teams: { '@acme/x': ['alice'] } }), 'approvals.json', head));
    expectStage('parseApprovals (refused)', parseApprovals('not json', 'approvals.json', head));
  });

  it.each(CASES)('each stage of fixture %s, run on its own, returns data', async (name, includeLocal) => {
    const m = sharedCase(name);
    const loaded = loadPolicy(m.repo);
    expectStage('loadPolicy', loaded);
    const { policy } = loaded.value;
    const options = { repoDir: m.repo, managedDir: m.managed, includeLocal, policy, outDir: join(m.dir, 'out') };
    const found = await discover(options);
    expectStage('discover', found);
    const parsed = parseDocs(found.value.files);
    expectStage('parseDocs', parsed);
    const followed = followImports(found.value.files, parsed.value, { roots: importRoots(found.value), maxDepth: 4, maxFiles: 100,
      maxBytes: 1 << 20, exclusions: found.value.exclusions, parse: parseDoc });
    expectStage('followImports', followed);
    const inputs = await readInputs(options);
    expectStage('readInputs', inputs);
    const { discovered, docs, imports } = inputs.value;
    for (const f of discovered.files) {
      const doc = docs.get(f.id);
      if (doc) expectStage(`activationOf(${f.id})`, activationOf(f, doc));
    }
    const resolved = resolve({ files: discovered.files, docs, paths: discovered.paths, imports });
    expectStage('resolve', resolved);
    const ctx = { ...imports, docs, places: new Map(discovered.files.map((f) => [f.id, f])) };
    for (const id of resolved.value.sources.keys()) expectStage(`expandImports(${id})`, expandImports(id, ctx));
    const counter = tokenCounter(policy.tokenizer);
    const rendered = render(resolved.value, counter);
    expectPlain('render', rendered);
    expectStage('checkBudgets', checkBudgets(rendered.variants, rendered.attachments, discovered.files, rendered.sourceTokens, policy));
    const scan = scanConflicts(resolved.value, policy);
    expectPlain('scanConflicts', scan);
    expectStage('finishConflicts', finishConflicts(scan, policy, counter, '2026-01-01'));
    for (const v of resolved.value.variants) expectPlain(`topicsFor(${v.id})`, topicsFor(resolved.value, policy, v.id));
    const job = profileJob(discovered.files, discovered.paths, resolved.value, policy, ctx);
    expectPlain('profileJob', job);
    expectStage('profiles', evaluateProfileJob(job));
  });
});
