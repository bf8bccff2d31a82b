/**
 * Conflict detection must not cry wolf on the instruction files real teams
 * ship. Each corpus repository is rebuilt as a skeleton git repo
 * (rebuild.sh, once, shared: helpers/corpus.ts), compiled with compile(), and
 * run through detectConflicts.
 * Every event it reports was read and judged; the reviewed list is inline, so
 * a new event (or a lost one) fails the test until someone reads it.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compile } from '../../src/compile.js';
import { detectConflicts } from '../../src/conflicts/detect.js';
import { CORPUS, corpusRepo } from '../helpers/corpus.js';
import { signature } from './signature.js';

/** Reviewed events per corpus entry: signature and the reviewer's judgement. */
const REVIEWED: Record<string, [string, string][]> = {
  'launchdarkly__js-core': [
    ...copies('.cursor/rules/dependencies.mdc', 6), ...copies('.cursor/rules/development.mdc', 4),
    ...copies('.cursor/rules/testing.mdc', 1), ...copies('.cursor/rules/typescript.mdc', 3),
  ],
  'ghostty-org__ghostty': [
    ['override build-command AGENTS.md | macos/AGENTS.md -> macos/AGENTS.md',
      'true: the root says "Build: `zig build`", macos/AGENTS.md says "do not use `zig build`" for the app and use macos/build.nu; ' +
      'the macOS directory is more specific and wins there, exactly what its authors meant (info).'],
  ],
};

/**
 * launchdarkly: the root CLAUDE.md and four always-on Cursor rules (`alwaysApply: true`, root scope)
 * carry the same bullets ("Use TypeScript for all new code", the test-layout rules …), one event per
 * bullet. True and info, as intended: no agent loads both a CLAUDE.md and a Cursor rule, but the
 * copies drift apart when one side is edited (RC3105).
 */
function copies(rule: string, n: number): [string, string][] {
  return Array.from({ length: n }, () => [`copy duplicate-text ${rule} | CLAUDE.md -> -`,
    'true (info): the same statement written for Cursor and for Claude Code at the root; each agent reads one copy, they drift']);
}

const entries = existsSync(CORPUS) ? readdirSync(CORPUS).filter((d) => existsSync(join(CORPUS, d, 'files'))).sort() : [];

describe.skipIf(entries.length === 0)('conflicts over the real-world corpus', () => {
  it.each(entries)('%s reports only reviewed events', async (entry) => {
    const dir = mkdtempSync(join(tmpdir(), 'rulec-corpus-'));
    try {
      const repo = corpusRepo(entry);
      const result = await compile({ repoDir: repo, outDir: join(dir, 'out') });
      const t0 = performance.now();
      const found = detectConflicts(result.resolution, result.policy, '2026-01-01');
      if (process.env.SHOW_EVENTS) console.log(entry, 'detect ms', Math.round(performance.now() - t0), 'variants', result.resolution.variants.length);
      if (process.env.SHOW_EVENTS) for (const e of found.events) console.log(entry, JSON.stringify(e, null, 1));
      const got = found.events.map(signature).sort();
      expect(got).toEqual((REVIEWED[entry] ?? []).map(([s]) => s).sort());
      expect(found.events.filter((e) => e.severity === 'error')).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
