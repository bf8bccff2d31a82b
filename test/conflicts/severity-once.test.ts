/**
 * Severity is decided once (src/validate/severity.ts): the manifest, the
 * diagnostics and the exit code agree. An accepted conflict is a suppression,
 * not a lowered severity (issue #9.3).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { compile } from '../../src/compile.js';
import { hasErrors } from '../../src/diagnostics/diagnostic.js';
import { makeTree, remove, type Made } from '../security/tree.js';

const made: Made[] = [];
afterAll(() => made.forEach(remove));

const TREE = {
  'AGENTS.md': '# Guide\n\n- Use pnpm.\n',
  'CLAUDE.md': '# Claude\n\n- Use yarn.\n',
  'src/a.ts': 'x\n',
};

async function build(policy: string) {
  const m = makeTree({ ...TREE, '.rulec/policy.yaml': policy });
  made.push(m);
  return compile({ repoDir: m.repo, outDir: join(m.dir, 'out'), today: '2026-06-01' });
}

describe('severity decided once', () => {
  it('without a policy: a contradiction is a warning in the manifest and in the diagnostics', async () => {
    const r = await build('version: 1\n');
    const events = r.manifest.conflicts.filter((e) => e.kind === 'contradiction');
    expect(events.map((e) => e.severity)).toEqual(['warning']);
    expect(r.diagnostics.filter((d) => d.code === 'RC3103').map((d) => d.severity)).toEqual(['warning']);
  });

  it('severity: { RC3103: error } raises the event and its diagnostic alike, and fails the build', async () => {
    const r = await build('version: 1\nseverity:\n  RC3103: error\n');
    expect(r.manifest.conflicts.filter((e) => e.kind === 'contradiction').map((e) => e.severity)).toEqual(['error']);
    expect(r.diagnostics.filter((d) => d.code === 'RC3103').map((d) => d.severity)).toEqual(['error']);
    expect(hasErrors(r.diagnostics)).toBe(true);
  });

  it('RC3103: error plus an accepted override: error everywhere, recorded as accepted, and the build passes', async () => {
    const r = await build('version: 1\nseverity:\n  RC3103: error\nconflicts:\n  overrides:\n'
      + '    - topic: package-manager\n      owner: "@platform"\n      reason: migrating to pnpm\n      expires: 2026-12-31\n');
    const [event] = r.manifest.conflicts.filter((e) => e.kind === 'contradiction');
    expect(event?.severity).toBe('error');
    expect(event?.accepted).toEqual({ owner: '@platform', reason: 'migrating to pnpm', expires: '2026-12-31' });
    const [d] = r.diagnostics.filter((x) => x.code === 'RC3103');
    expect(d?.severity).toBe('error');
    expect(d?.suppressed?.owner).toBe('@platform');
    expect(hasErrors(r.diagnostics)).toBe(false);
  });

  it('conflicts.severity by kind and severity by code: the code wins, and off drops the event too', async () => {
    const both = await build('version: 1\nconflicts:\n  severity:\n    contradiction: info\nseverity:\n  RC3103: error\n');
    expect(both.manifest.conflicts.filter((e) => e.kind === 'contradiction').map((e) => e.severity)).toEqual(['error']);
    const off = await build('version: 1\nseverity:\n  RC3103: "off"\n');
    expect(off.manifest.conflicts.filter((e) => e.kind === 'contradiction')).toEqual([]);
    expect(off.diagnostics.filter((d) => d.code === 'RC3103')).toEqual([]);
  });
});
