/**
 * detectConflicts as a whole: event shape (validated against the schema),
 * diagnostics, aggregation over variants, topicsFor, overrides, determinism,
 * and id stability under unrelated edits (a fast-check property).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { detectConflicts, type ConflictEvent } from '../../src/conflicts/detect.js';
import { topicsFor } from '../../src/conflicts/topics-for.js';
import type { Policy } from '../../src/config/policy.js';
import { CONFLICTS } from './fixtures.js';
import { POLICY, resolveTree, type Tree } from './tree.js';

const ENFORCED = '---\nid: org-policy\nenforce: true\n---\n\n# Organisation policy\n\n## Tooling\n\n- Use pnpm for all JavaScript projects.\n';
const MONO: Tree = {
  'managed:policy.md': ENFORCED,
  'AGENTS.md': '# Guide\n\n## Setup\n\n- Use pnpm.\n\n## Testing\n\n- Run `cargo test` before you commit.\n',
  'packages/api/AGENTS.md': '# API\n\n- Run tests with `cargo nextest run`.\n',
  'packages/api/CLAUDE.local.md': '# Mine\n\n- I run `npm install` here.\n',
  'packages/web/AGENTS.md': '# Web\n\n- Run tests with `cargo nextest run`.\n',
};
const detect = (tree: Tree, policy: Policy = POLICY, today = '2026-01-01', paths: string[] = []) => detectConflicts(resolveTree(tree, paths), policy, today);
const withConflicts = (conflicts: Policy['conflicts']): Policy => ({ ...POLICY, conflicts });

describe('detectConflicts', () => {
  it('every event validates against schemas/conflict-event.schema.json', () => {
    const schema = JSON.parse(readFileSync(join(import.meta.dirname, '../../schemas/conflict-event.schema.json'), 'utf8'));
    const validate = new Ajv2020.default({ strict: true }).compile(schema);
    const events = CONFLICTS.flatMap((c) => detectConflicts(resolveTree(c.tree, c.paths), POLICY, '2026-01-01').value);
    expect(events.length).toBeGreaterThan(30);
    for (const e of events) expect(validate(e) ? null : validate.errors).toBeNull();
    expect(validate({ ...events[0], kind: 'feud' })).toBe(false);
  });

  it('a violation by CLAUDE.local.md is an error diagnostic at the local line naming both files', () => {
    const r = detect(MONO);
    const v = r.value.filter((e) => e.kind === 'violation');
    expect(v.map((e) => [e.topic, e.adopted, e.severity, e.sides.map((s) => `${s.source}:${s.line}:${s.col}`)])).toEqual([
      ['package-manager', 'managed:policy.md', 'error', ['managed:policy.md:10:7', 'packages/api/CLAUDE.local.md:3:10']],
    ]);
    const d = r.diagnostics.filter((x) => x.code === 'RC3201');
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({ severity: 'error', file: 'packages/api/CLAUDE.local.md', range: { start: { line: 3, col: 10 } } });
    expect(d[0]?.message).toContain('managed:policy.md');
    expect(d[0]?.related?.map((x) => x.file)).toEqual(['managed:policy.md']);
  });

  it('one event per conflict, aggregated over every variant it occurs in, with path examples', () => {
    const r = detect(MONO, POLICY, '2026-01-01', ['packages/api/src/routes/x.ts', 'packages/web/src/a.ts', 'packages/web/src/b.ts']);
    const tests = r.value.filter((e) => e.topic === 'test-command').sort((a, b) => ((a.adopted ?? '') < (b.adopted ?? '') ? -1 : 1));
    // Paths per directory: the instruction files themselves, src/index.ts, and the extra paths.
    expect(tests.map((e) => [e.kind, e.adopted, e.variants.length, e.paths])).toEqual([
      ['override', 'packages/api/AGENTS.md', 1, { count: 4, examples: ['packages/api', 'packages/api/src', 'packages/api/src/routes'] }],
      ['override', 'packages/web/AGENTS.md', 1, { count: 4, examples: ['packages/web', 'packages/web/src'] }],
    ]);
    expect(r.diagnostics.filter((d) => d.code.startsWith('RC3')).length).toBe(r.value.length);
    expect(r.value.map((e) => e.id)).toEqual([...r.value.map((e) => e.id)].sort());
  });

  it('topicsFor names, per topic, the winner, the losers and the reason', () => {
    const res = resolveTree(MONO);
    const r = detectConflicts(res, POLICY, '2026-01-01');
    const api = res.variants.find((v) => v.dirs.includes('packages/api'));
    const rows = topicsFor(res, POLICY, api?.id ?? '').map((t) => [t.topic, t.winner.source, t.winner.value, t.losers.map((l) => `${l.source}=${l.value}`), t.reason]);
    expect(rows).toEqual([
      ['package-manager', 'managed:policy.md', 'pnpm', ['packages/api/CLAUDE.local.md=npm'], 'managed:policy.md is a managed rule marked enforce: true; packages/api/CLAUDE.local.md (local) may not override it'],
      ['test-command', 'packages/api/AGENTS.md', 'cargo nextest run', ['AGENTS.md=cargo test'], 'more specific scope: packages/api is narrower than the repository root'],
    ]);
    expect(topicsFor(res, POLICY, 'v-unknown')).toEqual([]);
  });

  it('severities come from the policy by kind', () => {
    const r = detect(MONO, withConflicts({ severity: { override: 'warning' } }));
    expect(r.value.filter((e) => e.kind === 'override').every((e) => e.severity === 'warning')).toBe(true);
    expect(r.diagnostics.filter((d) => d.code === 'RC3101').every((d) => d.severity === 'warning')).toBe(true);
  });

  it('same output whatever order the sources arrive in', () => {
    const reversed = Object.fromEntries(Object.entries(MONO).reverse());
    expect(JSON.stringify(detect(reversed))).toBe(JSON.stringify(detect(MONO)));
  });
});

describe('overrides', () => {
  const base = detect(MONO).value;
  const override = base.find((e) => e.topic === 'test-command') as ConflictEvent;
  const violation = base.find((e) => e.kind === 'violation') as ConflictEvent;
  const entry = { owner: 'team-api', reason: 'migrating to nextest', expires: '2026-06-30' };

  it('accept an event by id until the expiry date (inclusive)', () => {
    for (const today of ['2026-01-01', '2026-06-30']) {
      const r = detect(MONO, withConflicts({ overrides: [{ event: override.id, ...entry }] }), today);
      const e = r.value.find((x) => x.id === override.id);
      expect(e?.accepted).toEqual({ owner: 'team-api', reason: 'migrating to nextest', expires: '2026-06-30' });
      expect(e?.severity).toBe('info');
      expect(r.diagnostics.filter((d) => d.code.startsWith('RC33'))).toEqual([]);
    }
  });

  it('an expired override is an error and accepts nothing', () => {
    const r = detect(MONO, withConflicts({ overrides: [{ event: override.id, ...entry }] }), '2026-07-01');
    expect(r.value.find((x) => x.id === override.id)?.accepted).toBeUndefined();
    expect(r.diagnostics.filter((d) => d.code === 'RC3301').map((d) => d.severity)).toEqual(['error']);
  });

  it('accept by topic and scope: only events with a side in that scope', () => {
    const r = detect(MONO, withConflicts({ overrides: [{ topic: 'test-command', scope: 'packages/web', ...entry }] }));
    expect(r.value.filter((e) => e.accepted).map((e) => e.adopted)).toEqual(['packages/web/AGENTS.md']);
  });

  it('never accepts a violation of an enforced rule', () => {
    for (const o of [{ event: violation.id, ...entry }, { topic: 'package-manager', ...entry }]) {
      const r = detect(MONO, withConflicts({ overrides: [o] }));
      expect(r.value.find((x) => x.id === violation.id)).toMatchObject({ severity: 'error' });
      expect(r.value.find((x) => x.id === violation.id)?.accepted).toBeUndefined();
      expect(r.diagnostics.filter((d) => d.code === 'RC3303').map((d) => d.severity)).toEqual(['error']);
      expect(r.diagnostics.some((d) => d.code === 'RC3201' && d.severity === 'error')).toBe(true);
    }
  });

  it('unused and invalid overrides are reported', () => {
    const r = detect(MONO, withConflicts({ overrides: [{ event: 'c-0000000000000000', ...entry }, { topic: 'x', ...entry, expires: '2026-02-30' }, { ...entry }] }));
    expect(r.diagnostics.filter((d) => d.code.startsWith('RC33')).map((d) => [d.code, d.severity])).toEqual([
      ['RC3302', 'warning'], ['RC3304', 'error'], ['RC3304', 'error'],
    ]);
  });
});

/** Unrelated text: neutral words that name no tool, version, path or directive. */
const WORDS = ['lorem', 'ipsum', 'dolor', 'amet', 'harbour', 'lantern', 'meadow', 'pebble', 'quartz', 'willow', 'zephyr', 'orchard'];
const sentence = fc.array(fc.constantFrom(...WORDS), { minLength: 3, maxLength: 12 }).map((w) => `${w.join(' ')}.`);
const block = fc.oneof(
  sentence,
  fc.array(sentence, { minLength: 1, maxLength: 3 }).map((s) => s.map((x) => `- ${x}`).join('\n')),
);

/** Insert paragraphs between blocks; add new sections only at the end, where they capture nothing. */
function insert(text: string, blocks: string[], positions: number[], section: string | null): string {
  const parts = text.trimEnd().split('\n\n');
  blocks.forEach((b, i) => parts.splice(1 + ((positions[i] ?? 0) % parts.length), 0, b));
  return `${parts.join('\n\n')}\n${section ? `\n## ${section}\n\n${blocks[0] ?? 'x'}\n` : ''}`;
}

describe('event ids', () => {
  it('are stable when unrelated text is added to either file (property)', () => {
    fc.assert(fc.property(
      fc.integer({ min: 0, max: CONFLICTS.length - 1 }), fc.array(block, { minLength: 1, maxLength: 4 }),
      fc.array(fc.nat(), { minLength: 4, maxLength: 4 }), fc.option(fc.constantFrom(...WORDS)), fc.boolean(),
      (which, blocks, positions, section, first) => {
        const c = CONFLICTS[which] as (typeof CONFLICTS)[number];
        const before = detectConflicts(resolveTree(c.tree, c.paths), POLICY, '2026-01-01').value;
        const keys = Object.keys(c.tree).sort();
        const target = first ? keys[0] as string : keys[keys.length - 1] as string;
        const tree = { ...c.tree, [target]: insert(c.tree[target] as string, blocks, positions, section) };
        const after = detectConflicts(resolveTree(tree, c.paths), POLICY, '2026-01-01').value;
        expect(after.map((e) => e.id)).toEqual(before.map((e) => e.id));
      }), { numRuns: 300 });
  });

  it('change when a side changes its value', () => {
    const c = CONFLICTS[0] as (typeof CONFLICTS)[number];
    const before = detect(c.tree).value.map((e) => e.id);
    const after = detect({ ...c.tree, 'packages/api/AGENTS.md': '# API\n\n- Use yarn here: `yarn install`.\n' }).value.map((e) => e.id);
    expect(after).toHaveLength(1);
    expect(after).not.toEqual(before);
  });
});
