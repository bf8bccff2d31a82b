/**
 * compile() hands the token counts and the agent profiles to its worker from
 * planResolution(), before attachRules() matches the rules' globs. That is
 * only sound while nothing the worker reads depends on what the globs match:
 * the plan's sources, variants and index are the resolution's, its
 * attachments are the resolution's without `matches`, and the blocks to count
 * and the profile job are the same whichever of the two they are taken from.
 * Checked on every golden fixture and on a tree whose rules match, overlap
 * and match nothing.
 */
import { describe, expect, it } from 'vitest';
import { loadPolicy } from '../src/config/load-policy.js';
import { readInputs } from '../src/discover/read-inputs.js';
import { attachRules, planResolution, resolve } from '../src/resolve/resolve.js';
import { blockTexts } from '../src/render/render.js';
import { profileJob } from '../src/profiles/profile-job.js';
import { fixtureCases, optionsFromArgs, sharedCase } from './helpers/fixture-repo.js';
import { makeTree, remove } from './security/tree.js';

async function expectPlanAgrees({ repoDir, managedDir, includeLocal }: { repoDir: string; managedDir?: string; includeLocal?: boolean }): Promise<Resolution> {
  const { policy } = loadPolicy(repoDir).value;
  const inputs = await readInputs({ repoDir, managedDir, includeLocal: includeLocal ?? false, policy });
  const { discovered, docs, imports } = inputs.value;
  const input = { files: discovered.files, docs, paths: discovered.paths, imports };
  const plan = planResolution(input);
  const whole = resolve(input);
  expect(plan.value.sources).toEqual(whole.value.sources);
  expect(plan.value.variants).toEqual(whole.value.variants);
  expect(plan.value.index).toEqual(whole.value.index);
  expect(plan.value.attachments).toEqual(whole.value.attachments.map(({ matches: _m, ...a }) => a));
  expect(blockTexts(plan.value)).toEqual(blockTexts(whole.value));
  const ctx = { ...imports, docs, places: new Map(discovered.files.map((f) => [f.id, f])) };
  expect(profileJob(discovered.files, discovered.paths, plan.value, policy, ctx))
    .toEqual(profileJob(discovered.files, discovered.paths, whole.value, policy, ctx));
  // resolve() is the plan, then the matching: the same diagnostics, whichever way they are taken.
  const attached = attachRules(plan.value, discovered.paths);
  expect(attached.value).toEqual(whole.value);
  expect([...plan.diagnostics, ...attached.diagnostics]).toEqual(whole.diagnostics);
  return { ...whole.value, diagnostics: whole.diagnostics };
}

type Resolution = ReturnType<typeof resolve>['value'] & { diagnostics: ReturnType<typeof resolve>['diagnostics'] };

describe('the resolution plan the worker starts from', () => {
  it.each(fixtureCases())('fixture %s: the plan is the resolution without what the globs match', async (name) => {
    await expectPlanAgrees(optionsFromArgs(sharedCase(name)));
  });

  it('rules that match, overlap, import and match nothing', async () => {
    const m = makeTree({
      'AGENTS.md': '# Root\n\nUse pnpm.\n',
      'src/api/CLAUDE.md': '# API\n\n@../../docs/api.md\n',
      'docs/api.md': 'Document every endpoint.\n',
      '.claude/rules/ts.md': '---\npaths:\n  - "src/**/*.ts"\n---\nUse strict TypeScript.\n@../../docs/api.md\n',
      '.claude/rules/api.md': '---\npaths:\n  - "src/api/**"\n  - "nowhere/**"\n---\nValidate input.\n',
      '.claude/rules/dead.md': '---\npaths:\n  - "missing/**"\n---\nNever loads.\n',
      '.github/instructions/ts.instructions.md': '---\napplyTo: "**/*.ts"\n---\nPrefer const.\n',
      'src/api/handler.ts': '', 'src/lib/util.ts': '', 'README.md': '',
    }, { useGit: false });
    try {
      const r = await expectPlanAgrees({ repoDir: m.repo });
      // Not vacuous: attachments that match, and a rule that matches nothing (RC3002) or only in part (RC3004).
      expect(r.attachments.map((a) => a.matches).sort()).toEqual([0, 2, 2, 2]);
      expect(r.diagnostics.map((d) => d.code).sort()).toEqual(['RC3002', 'RC3004']);
    } finally {
      remove(m);
    }
  });
});
