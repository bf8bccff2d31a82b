/**
 * The hard caps on conflict detection: distinct findings per source and topic
 * (RC3106) and events per build (RC3107) — coded diagnostics instead of
 * unbounded work or output, and never at the cost of a violation.
 */
import { describe, expect, it } from 'vitest';
import { detectConflicts } from '../../src/conflicts/detect.js';
import type { Policy } from '../../src/config/policy.js';
import { POLICY, resolveTree, type Tree } from './tree.js';

const withLimits = (limits: NonNullable<Policy['conflicts']>['limits'], rest: Policy['conflicts'] = {}): Policy => ({ ...POLICY, conflicts: { ...rest, limits } });
const detect = (tree: Tree, policy: Policy) => detectConflicts(resolveTree(tree), policy, '2026-01-01');
const bullets = (k: number, line: (i: number) => string): string => Array.from({ length: k }, (_, i) => `- ${line(i)}`).join('\n');

describe('findings per source and topic', () => {
  const tree: Tree = {
    'AGENTS.md': `# A\n\n${bullets(12, (i) => `Never log request body field${i} data.`)}\n`,
    'packages/api/AGENTS.md': `# B\n\n${bullets(12, (i) => `Always log request body field${i} data.`)}\n`,
  };

  it('past the limit, the rest of a source\'s findings on that topic are not compared, and RC3106 says where they start', () => {
    const r = detect(tree, withLimits({ findings_per_topic: 5 }));
    expect(r.value.map((e) => [e.topic, e.sides.length])).toEqual([['directive', 10]]);
    const d = r.diagnostics.filter((x) => x.code === 'RC3106');
    expect(d.map((x) => [x.file, x.range.start.line, x.severity])).toEqual([['AGENTS.md', 8, 'warning'], ['packages/api/AGENTS.md', 8, 'warning']]);
    expect(d[0]?.message).toContain('7 from here on are not compared');
  });

  it('the default limit (500) leaves ordinary files alone', () => {
    const r = detect(tree, POLICY);
    expect(r.value.map((e) => e.sides.length)).toEqual([24]);
    expect(r.diagnostics.filter((x) => x.code === 'RC3106')).toEqual([]);
  });
});

describe('events per build', () => {
  const ENFORCED = '---\nid: org\nenforce: true\n---\n\n# Org\n\n- Use pnpm.\n';
  /** n packages that each pick another package manager than the root: n override events, plus n violations of the enforced rule. */
  const tree = (n: number): Tree => {
    const t: Tree = { 'managed:policy.md': ENFORCED, 'AGENTS.md': '# Root\n\n- Use bun: `bun install`.\n' };
    for (let i = 0; i < n; i++) t[`packages/p${i}/AGENTS.md`] = `# P${i}\n\n- Use yarn: \`yarn install\`.\n`;
    return t;
  };

  it('past the limit, the least severe events are dropped with RC3107, and every error stays', () => {
    const all = detect(tree(6), POLICY).value;
    const errors = all.filter((e) => e.severity === 'error');
    expect(errors.length).toBeGreaterThanOrEqual(7);
    const limit = errors.length + 2;
    const r = detect(tree(6), withLimits({ events: limit }));
    expect(r.value).toHaveLength(limit);
    expect(r.value.filter((e) => e.severity === 'error').map((e) => e.id)).toEqual(errors.map((e) => e.id));
    const d = r.diagnostics.filter((x) => x.code === 'RC3107');
    expect(d.map((x) => x.severity)).toEqual(['warning']);
    expect(d[0]?.message).toContain(`${all.length} conflict events, more than conflicts.limits.events (${limit}): ${all.length - limit} `);
    expect(d[0]?.message).not.toContain('stopped early');
  });

  it('a limit below the number of errors keeps them all', () => {
    const r = detect(tree(6), withLimits({ events: 3 }));
    expect(r.value.filter((e) => e.severity !== 'error')).toEqual([]);
    expect(r.value.length).toBeGreaterThanOrEqual(7);
  });

  it('warnings are kept before infos', () => {
    const shared = '- Keep pull requests under 400 changed lines and link the ticket in the description.\n';
    const t = Object.fromEntries(Object.entries(tree(6)).map(([p, text]) => [p, p.startsWith('managed:') ? text : text + shared]));
    const all = detect(t, POLICY).value;
    const errors = all.filter((e) => e.severity === 'error').length;
    expect(all.filter((e) => e.severity === 'warning').map((e) => e.kind)).toEqual(['duplicate']);
    expect(all.filter((e) => e.severity === 'info').length).toBeGreaterThan(0);
    const r = detect(t, withLimits({ events: errors + 1 }));
    expect(r.value.filter((e) => e.severity !== 'error').map((e) => e.kind)).toEqual(['duplicate']);
  });

  it('stops comparing at twice the limit but still finds every violation of an enforced rule', () => {
    const r = detect(tree(40), withLimits({ events: 2 }));
    const violations = r.value.filter((e) => e.kind === 'violation');
    // Each package's yarn, and the root's bun, against the enforced pnpm.
    expect(violations.map((e) => e.sides.map((s) => s.source).sort().join(' '))).toHaveLength(41);
    expect(r.diagnostics.filter((x) => x.code === 'RC3107')[0]?.message).toContain('Detection stopped early');
  });

  it('no RC3107 under the limit', () => {
    expect(detect(tree(3), POLICY).diagnostics.filter((x) => x.code === 'RC3107')).toEqual([]);
  });
});
