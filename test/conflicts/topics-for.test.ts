/**
 * topicsFor() ranks agreeing sources by the policy's layer order, as the
 * cascade rules conflicts (issue #9.6: the ranking ignored
 * conflicts.layer_order and always used the default).
 */
import { describe, expect, it } from 'vitest';
import { topicsFor } from '../../src/conflicts/topics-for.js';
import type { Policy } from '../../src/config/policy.js';
import { POLICY, resolveTree } from './tree.js';

// Same scope (the root), two layers, one agreeing statement on the package manager.
const TREE = {
  'AGENTS.md': '# Tools\n\n- Use pnpm for every install.\n',
  'CLAUDE.local.md': '# Mine\n\n- Use pnpm for every install.\n',
};

function winner(policy: Policy): string | undefined {
  const res = resolveTree(TREE);
  const root = res.variants.find((v) => v.dirs.includes(''));
  return topicsFor(res, policy, root?.id ?? '').find((t) => t.topic === 'package-manager')?.winner.source;
}

describe('topicsFor', () => {
  it('names the most authoritative of agreeing sources by the default layer order', () => {
    expect(winner(POLICY)).toBe('AGENTS.md');
  });

  it('follows the policy conflicts.layer_order', () => {
    expect(winner({ ...POLICY, conflicts: { layer_order: ['managed', 'local', 'repo', 'path', 'user'] } } as Policy)).toBe('CLAUDE.local.md');
  });
});
