/**
 * The pure state machine: a table of transitions and refusals, and fast-check
 * over random operation sequences holding the invariants.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/util/canonical-json.js';
import { emptyState, type Op, type RegistryState } from '../../src/registry/model.js';
import { lastGoodOf, transition } from '../../src/registry/state.js';

const D = Array.from({ length: 8 }, (_, i) => `sha256:${String(i).repeat(64)}`);
const SIG = `sha256:${'f'.repeat(64)}`;
const pub = (i: number, channel = 'stable'): Op => ({ op: 'publish', channel, digest: D[i] as string, bundle_id: `b-${String(i).repeat(16)}`, version: `0.${i + 1}.0`, rev_seq: i, signature: SIG });

/** Apply ops in order; returns the state and the code of each refusal (null: applied). */
function run(ops: Op[], from: RegistryState = emptyState()): { state: RegistryState; codes: (string | null)[]; seq: number } {
  let state = from;
  let seq = 0;
  const codes: (string | null)[] = [];
  for (const op of ops) {
    const t = transition(state, op, seq + 1);
    if (t.ok) { state = t.state; seq += 1; codes.push(null); } else codes.push(t.diagnostic.code);
  }
  return { state, codes, seq };
}

const ch = (s: RegistryState, name = 'stable') => s.channels[name] as NonNullable<RegistryState['channels'][string]>;

describe('transitions', () => {
  it('draft → canary → ramp → promoted; the next promote deprecates it and records it as last known good', () => {
    const { state, codes } = run([
      pub(0), { op: 'canary', channel: 'stable', digest: D[0] as string, bps: 500, salt: 'r2' },
      { op: 'ramp', channel: 'stable', digest: D[0] as string, bps: 5000 }, { op: 'promote', channel: 'stable', digest: D[0] as string },
      pub(1), { op: 'canary', channel: 'stable', digest: D[1] as string, bps: 100, salt: 's' }, { op: 'promote', channel: 'stable', digest: D[1] as string },
    ]);
    expect(codes).toEqual([null, null, null, null, null, null, null]);
    expect(ch(state).promoted).toBe(D[1]);
    expect(ch(state).last_good).toBe(D[0]);
    expect(ch(state).bundles[D[0] as string]).toEqual({ state: 'deprecated', rev: 5, since: 7 });
    expect(ch(state).canary).toBeNull();
  });

  it.each<[string, Op[], string]>([
    ['promote of a draft', [pub(0), { op: 'promote', channel: 'stable', digest: D[0] as string }], 'RC7105'],
    ['a second canary', [pub(0), pub(1), { op: 'canary', channel: 'stable', digest: D[0] as string, bps: 1, salt: 'a' }, { op: 'canary', channel: 'stable', digest: D[1] as string, bps: 1, salt: 'a' }], 'RC7106'],
    ['a ramp down', [pub(0), { op: 'canary', channel: 'stable', digest: D[0] as string, bps: 500, salt: 'a' }, { op: 'ramp', channel: 'stable', digest: D[0] as string, bps: 500 }], 'RC7107'],
    ['abort with no canary', [pub(0), { op: 'abort', channel: 'stable', digest: D[0] as string }], 'RC7108'],
    ['rollback to a never-promoted bundle', [pub(0), { op: 'deprecate', channel: 'stable', digest: D[0] as string }, { op: 'rollback', channel: 'stable', digest: D[0] as string }], 'RC7109'],
    ['a lower revision', [pub(3), pub(1)], 'RC7103'],
    ['the same digest twice', [pub(0), pub(0)], 'RC7102'],
    ['publish of a revoked digest', [{ op: 'revoke', digest: D[0] as string, severity: 'drain', reason: 'bad' }, pub(0)], 'RC7104'],
    ['revoke twice at the same severity', [pub(0), { op: 'revoke', digest: D[0] as string, severity: 'halt', reason: 'x' }, { op: 'revoke', digest: D[0] as string, severity: 'drain', reason: 'x' }], 'RC7110'],
    ['a canary of 0 bps', [pub(0), { op: 'canary', channel: 'stable', digest: D[0] as string, bps: 0, salt: 'a' }], 'RC7111'],
    ['an unknown channel', [pub(0), { op: 'promote', channel: 'beta', digest: D[0] as string }], 'RC7112'],
    ['deprecate of the promoted bundle', [pub(0), { op: 'canary', channel: 'stable', digest: D[0] as string, bps: 1, salt: 'a' }, { op: 'promote', channel: 'stable', digest: D[0] as string }, { op: 'deprecate', channel: 'stable', digest: D[0] as string }], 'RC7105'],
  ])('refuses %s', (_name, ops, code) => {
    expect(run(ops).codes.at(-1)).toBe(code);
  });

  it('abort returns the canary to draft and keeps the promoted bundle', () => {
    const { state } = run([
      pub(0), { op: 'canary', channel: 'stable', digest: D[0] as string, bps: 10, salt: 'a' }, { op: 'promote', channel: 'stable', digest: D[0] as string },
      pub(1), { op: 'canary', channel: 'stable', digest: D[1] as string, bps: 10, salt: 'a' }, { op: 'abort', channel: 'stable', digest: D[1] as string },
    ]);
    expect(ch(state).promoted).toBe(D[0]);
    expect(ch(state).canary).toBeNull();
    expect(ch(state).bundles[D[1] as string]?.state).toBe('draft');
  });

  it('revoke of the promoted bundle restores the last known good one; with none the channel serves nothing', () => {
    const promoteOf = (i: number): Op[] => [pub(i), { op: 'canary', channel: 'stable', digest: D[i] as string, bps: 10, salt: 'a' }, { op: 'promote', channel: 'stable', digest: D[i] as string }];
    const two = run([...promoteOf(0), ...promoteOf(1), { op: 'revoke', digest: D[1] as string, severity: 'halt', reason: 'incident' }]);
    expect(ch(two.state).promoted).toBe(D[0]);
    expect(ch(two.state).last_good).toBeNull();
    expect(two.state.denylist[D[1] as string]).toEqual({ severity: 'halt', reason: 'incident', seq: 7 });
    const one = run([...promoteOf(0), { op: 'revoke', digest: D[0] as string, severity: 'drain', reason: 'incident' }]);
    expect(one.codes.at(-1)).toBeNull();
    expect(ch(one.state).promoted).toBeNull();
  });

  it('rollback promotes an earlier good digest under a new seq', () => {
    const promoteOf = (i: number): Op[] => [pub(i), { op: 'canary', channel: 'stable', digest: D[i] as string, bps: 10, salt: 'a' }, { op: 'promote', channel: 'stable', digest: D[i] as string }];
    const { state, seq } = run([...promoteOf(0), ...promoteOf(1), { op: 'rollback', channel: 'stable', digest: D[0] as string }]);
    expect(ch(state).promoted).toBe(D[0]);
    expect(ch(state).last_good).toBe(D[1]);
    expect(ch(state).bundles[D[0] as string]?.since).toBe(seq);
  });

  it('a drain revocation can be raised to halt', () => {
    const { codes, state } = run([pub(0), { op: 'revoke', digest: D[0] as string, severity: 'drain', reason: 'a' }, { op: 'revoke', digest: D[0] as string, severity: 'halt', reason: 'b' }]);
    expect(codes).toEqual([null, null, null]);
    expect(state.denylist[D[0] as string]?.severity).toBe('halt');
  });
});

/**
 * An operation template, resolved against the current state when applied: most
 * pick a digest the operation can apply to (a draft for canary, the canary for
 * ramp/abort/promote, the history for rollback), one in four a random one, so
 * sequences reach deep states and still try every refusal.
 */
interface Template { kind: Op['op']; channel: string; pick: number; i: number; bps: number; salt: string; severity: 'drain' | 'halt' }
const templateArb: fc.Arbitrary<Template> = fc.record({
  kind: fc.constantFrom<Op['op']>('publish', 'publish', 'publish', 'canary', 'canary', 'canary', 'ramp', 'abort', 'promote', 'promote', 'promote', 'rollback', 'rollback', 'deprecate', 'revoke'),
  channel: fc.constantFrom('stable', 'beta'), pick: fc.nat(), i: fc.integer({ min: 0, max: D.length - 1 }),
  bps: fc.integer({ min: 1, max: 10000 }), salt: fc.constantFrom('r1', 'r2'), severity: fc.constantFrom<'drain' | 'halt'>('drain', 'halt'),
});

function resolve(t: Template, s: RegistryState): Op {
  const c = s.channels[t.channel];
  const inState = (st: string): string[] => Object.entries(c?.bundles ?? {}).filter(([, b]) => b.state === st).map(([d]) => d);
  const candidates: Record<Op['op'], string[]> = {
    publish: [], canary: inState('draft'), ramp: c?.canary ? [c.canary.digest] : [], abort: c?.canary ? [c.canary.digest] : [],
    promote: c?.canary ? [c.canary.digest] : [], rollback: c?.history ?? [], deprecate: inState('draft'),
    revoke: [...(c?.promoted ? [c.promoted] : []), ...(c?.canary ? [c.canary.digest] : []), ...Object.keys(c?.bundles ?? {})],
    refresh: [], // never drawn: refresh changes no state (test/registry/refresh.test.ts)
  };
  const list = candidates[t.kind];
  const digest = t.pick % 4 === 0 || list.length === 0 ? (D[t.i] as string) : (list[t.pick % list.length] as string);
  switch (t.kind) {
    case 'publish': {
      const next = D.findIndex((d, i) => !c?.bundles[d] && !s.denylist[d] && (c?.version == null || Number(c.version.split('.')[1]) < i + 1));
      return pub(t.pick % 4 === 0 || next < 0 ? t.i : next, t.channel);
    }
    case 'canary': return { op: 'canary', channel: t.channel, digest, bps: t.bps, salt: t.salt };
    case 'ramp': return { op: 'ramp', channel: t.channel, digest, bps: t.bps };
    case 'revoke': return { op: 'revoke', digest, severity: t.severity, reason: 'r' };
    default: return { op: t.kind, channel: t.channel, digest };
  }
}

function checkInvariants(prev: RegistryState, next: RegistryState, seq: number): void {
  for (const [name, c] of Object.entries(next.channels)) {
    const states = Object.entries(c.bundles);
    const promoted = states.filter(([, b]) => b.state === 'promoted').map(([d]) => d);
    const canary = states.filter(([, b]) => b.state === 'canary').map(([d]) => d);
    expect(promoted).toEqual(c.promoted === null ? [] : [c.promoted]);
    expect(canary).toEqual(c.canary === null ? [] : [c.canary.digest]);
    for (const d of [c.promoted, c.canary?.digest]) if (d) expect(next.denylist[d], `${name} points at denylisted ${d}`).toBeUndefined();
    expect(c.last_good).toBe(lastGoodOf(c, next));
    if (c.last_good !== null) {
      expect(c.history).toContain(c.last_good);
      expect(next.denylist[c.last_good]).toBeUndefined();
      expect(c.bundles[c.last_good]?.state).toBe('deprecated');
    }
    const before = prev.channels[name];
    for (const [d, b] of states) {
      expect(b.since).toBeLessThanOrEqual(seq);
      const was = before?.bundles[d];
      if (was) {
        expect(b.rev).toBeGreaterThanOrEqual(was.rev);
        if (was.state === 'revoked') expect(b).toEqual(was);
      }
      if (next.denylist[d]) expect(b.state).toBe('revoked');
    }
  }
  for (const d of Object.keys(prev.denylist)) expect(next.denylist[d]).toBeDefined();
}

/**
 * A sequence that revokes the promoted bundle while an earlier one is the last known good: the
 * random sequences reach it in most runs, not all (a fresh-clone run missed it), so it runs
 * first in every run and the coverage check below does not depend on the seed.
 */
const RESTORING: Template[] = (['publish', 'canary', 'promote', 'publish', 'canary', 'promote', 'revoke'] as const)
  .map((kind) => ({ kind, channel: 'stable', pick: kind === 'revoke' ? 3 : 1, i: 0, bps: 10000, salt: 'r1', severity: 'halt' }));

describe('random operation sequences', () => {
  it('keep every invariant; refusals change nothing', () => {
    let applied = 0;
    let total = 0;
    const kinds = new Map<string, number>();
    fc.assert(fc.property(fc.array(templateArb, { minLength: 10, maxLength: 80, size: 'max' }), (templates) => {
      let state = emptyState();
      let seq = 0;
      for (const template of templates) {
        const op = resolve(template, state);
        const before = canonicalJson(state);
        const t = transition(state, op, seq + 1);
        expect(canonicalJson(state)).toBe(before);
        total += 1;
        if (!t.ok) continue;
        applied += 1;
        const restored = op.op === 'revoke' && Object.entries(t.state.channels).some(([n, c]) => c.promoted !== null && state.channels[n]?.promoted === op.digest);
        for (const k of [op.op, ...(restored ? ['revoke-restores'] : [])]) kinds.set(k, (kinds.get(k) ?? 0) + 1);
        checkInvariants(state, t.state, seq + 1);
        state = t.state;
        seq += 1;
      }
    }), { numRuns: 150, examples: [[RESTORING]] });
    expect(applied / total).toBeGreaterThan(0.2);
    // The sequences reach every transition, including a revoke that restores the last known good bundle.
    expect([...kinds.keys()].sort()).toEqual(['abort', 'canary', 'deprecate', 'promote', 'publish', 'ramp', 'revoke', 'revoke-restores', 'rollback']);
  });
});
