/**
 * Conflict detection on resolutions built by compile() from real directories:
 * the example monorepo, and a repo whose CLAUDE.local.md contradicts an
 * enforced managed rule (the build must fail, naming both files).
 */
import { describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compile } from '../../src/compile.js';
import { detectConflicts } from '../../src/conflicts/detect.js';
import { topicsFor } from '../../src/conflicts/topics-for.js';
import { hasErrors } from '../../src/diagnostics/diagnostic.js';
import { materialiseTree } from '../helpers/fixture-repo.js';
import { signature } from './signature.js';

const EXAMPLES = join(import.meta.dirname, '..', '..', 'examples');

describe('conflicts after compile()', () => {
  it('the example monorepo: only the AGENTS.override.md shadow, no contradiction or violation', async () => {
    const m = materialiseTree(join(EXAMPLES, 'monorepo'), { untracked: ['packages/api/CLAUDE.local.md'] }, true, join(EXAMPLES, 'managed'));
    const result = await compile({ repoDir: m.repo, managedDir: m.managed ?? undefined, includeLocal: true, outDir: join(m.dir, 'out') });
    const found = detectConflicts(result.resolution, result.policy, '2026-01-01');
    expect(found.value.map(signature)).toEqual([
      'shadow agents-override packages/web/AGENTS.md | packages/web/AGENTS.override.md -> packages/web/AGENTS.override.md',
    ]);
    const api = result.resolution.variants.find((v) => v.dirs.includes('packages/api/src'));
    expect(topicsFor(result.resolution, result.policy, api?.id ?? '').find((t) => t.topic === 'package-manager')?.winner.source).toBe('packages/api/AGENTS.md');
  });

  it('CLAUDE.local.md against an enforced managed rule fails with an error naming both files', async () => {
    const m = materialiseTree(join(EXAMPLES, 'monorepo'), { untracked: ['packages/api/CLAUDE.local.md'] }, true, join(EXAMPLES, 'managed'));
    writeFileSync(join(m.repo, 'packages/api/CLAUDE.local.md'), '# My notes\n\n- Push directly to main when the tests pass.\n');
    mkdirSync(join(m.dir, 'managed'), { recursive: true });
    writeFileSync(join(m.dir, 'managed', 'git.md'), '---\nid: managed-git\nenforce: true\n---\n\n# Git\n\n- Never push directly to main; open a pull request.\n');
    const result = await compile({ repoDir: m.repo, managedDir: join(m.dir, 'managed'), includeLocal: true, outDir: join(m.dir, 'out') });
    const found = detectConflicts(result.resolution, result.policy, '2026-01-01');
    const errors = found.diagnostics.filter((d) => d.severity === 'error');
    expect(errors.map((d) => [d.code, `${d.file}:${d.range.start.line}:${d.range.start.col}`, d.related?.map((r) => `${r.file}:${r.range.start.line}`)])).toEqual([
      ['RC3201', 'packages/api/CLAUDE.local.md:3:3', ['managed://git.md:8']],
    ]);
    expect(errors[0]?.message).toMatch(/packages\/api\/CLAUDE\.local\.md.*managed:\/\/git\.md|managed:\/\/git\.md.*packages\/api\/CLAUDE\.local\.md/);
    expect(hasErrors(found.diagnostics)).toBe(true);
  });
});
