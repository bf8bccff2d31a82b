import { describe, expect, it } from 'vitest';
import { globBase, rule, type Authority } from '../../src/conflicts/cascade.js';

const A = (source: string, layer: Authority['layer'], specificity: number, enforced = false): Authority => ({ source, layer, enforced, specificity, scope: source });

describe('rule (the authority cascade)', () => {
  it.each<[string, Authority, Authority, string, 0 | 1 | null]>([
    ['enforced managed beats a deeper local file', A('m', 'managed', -1, true), A('l', 'local', 3), 'violation', 0],
    ['enforced managed beats the repo root, either order', A('r', 'repo', 0), A('m', 'managed', -1, true), 'violation', 1],
    ['two enforced rules: no winner', A('m1', 'managed', -1, true), A('m2', 'managed', -1, true), 'contradiction', null],
    ['repo root beats a non-enforced managed default', A('m', 'managed', -1), A('r', 'repo', 0), 'override', 1],
    ['deeper directory beats shallower', A('p', 'path', 2), A('r', 'repo', 0), 'override', 0],
    ['glob rule beats its base directory', A('g', 'path', 2.5), A('p', 'path', 2), 'override', 0],
    ['deeper local file beats the root', A('l', 'local', 2), A('r', 'repo', 0), 'override', 0],
    ['same scope: repo beats local by layer order', A('l', 'local', 0), A('r', 'repo', 0), 'override', 1],
    ['same scope and layer: contradiction', A('a', 'repo', 0), A('c', 'repo', 0), 'contradiction', null],
  ])('%s', (_name, a, b, kind, winner) => {
    const r = rule(a, b);
    expect([r.kind, r.winner]).toEqual([kind, winner]);
    expect(r.reason.length).toBeGreaterThan(20);
  });

  it('a policy layer order can put local first within one scope', () => {
    expect(rule(A('l', 'local', 0), A('r', 'repo', 0), ['local', 'managed', 'repo', 'path', 'user']).winner).toBe(0);
  });

  it.each([['packages/api/**', 'packages/api'], ['**/*.test.ts', ''], ['src/*.ts', 'src'], ['a/{b,c}/x.ts', 'a'], ['README.md', '']])('globBase(%s) = %j', (g, base) => {
    expect(globBase(g)).toBe(base);
  });
});
