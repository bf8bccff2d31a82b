/**
 * `rulec check` on git fixture histories: one case per change kind and per
 * risk class, each a base commit and a head commit made by the test at fixed
 * dates. The command runs in-process (checkCommand with a recording Io); its
 * JSON report is validated against schemas/check.schema.json and compared,
 * with its text, to golden files under test/check/expected/<case>.{json,txt}
 * (UPDATE_GOLDEN=1 rewrites them).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkCommand } from '../../src/cli/commands/check.js';
import type { Io } from '../../src/cli/io.js';
import type { CheckReport } from '../../src/diff/check-model.js';
import { expectTree } from '../helpers/golden.js';
import { history, type History, type TreeEdit } from '../diff/history.js';
import { validateCheck } from '../diff/schema.js';

const EXPECTED = join(import.meta.dirname, 'expected');
const made: History[] = [];
afterAll(() => { for (const h of made) h.cleanup(); });

const BASE: TreeEdit = {
  'AGENTS.md': '# Repo\n\n## Testing\n\n- Run `npm test` before committing.\n\n## Style\n\nKeep functions short.\n',
  'CLAUDE.md': '# Claude\n\nFollow @docs/conventions.md for naming.\n',
  'docs/conventions.md': '# Conventions\n\nName files in kebab-case.\n',
  'docs/unrelated.md': '# Notes\n\nNothing imports this file.\n',
  'packages/api/AGENTS.md': '# API\n\n## Logging\n\nNever log request bodies.\n',
  'packages/api/src/index.ts': 'export {};\n',
  '.claude/rules/ts.md': '---\npaths: ["src/**"]\n---\n# TypeScript\n\nPrefer `unknown` over `any`.\n',
  'src/a.ts': 'export {};\n',
};

interface Run { code: number; out: string; err: string }

async function run(cwd: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  let out = '';
  let err = '';
  const io: Io = { out: (t) => { out += t; }, err: (t) => { err += t; }, cwd };
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    return { code: await checkCommand(args, io), out, err };
  } finally {
    for (const k of Object.keys(env)) if (saved[k] === undefined) delete process.env[k];
  }
}

interface Case {
  name: string;
  head: TreeEdit;
  base?: TreeEdit;
  /** Extra arguments; {managed} is the managed directory next to the repository. */
  args?: string[];
  managed?: string;
  /** Approvals for the head commit, by approver; teams as the contract says. */
  approvals?: { approvers: string[]; teams?: Record<string, string[]>; head?: 'other' };
  want: { code: number; verdict: CheckReport['verdict']; skipped?: boolean; risk?: string; checks?: string[] };
}

const POLICY_OWNERS = 'version: 1\nrisk:\n  classes:\n    high: { approvals: 1, owners: ["* @acme/security"] }\n';

const CASES: Case[] = [
  { name: 'no-rule-change', head: { 'src/a.ts': 'export const a = 1;\n', 'docs/unrelated.md': '# Notes\n\nStill unrelated.\n' },
    want: { code: 0, verdict: 'pass', skipped: true } },
  { name: 'imported-file', head: { 'docs/conventions.md': '# Conventions\n\nName files in kebab-case, always.\n' },
    want: { code: 0, verdict: 'pass', risk: 'low', checks: ['wording'] } },
  { name: 'wording', head: { 'AGENTS.md': String(BASE['AGENTS.md']).replace('Keep functions short.', 'Keep your functions short.') },
    want: { code: 0, verdict: 'pass', risk: 'low', checks: ['wording'] } },
  { name: 'test-command', head: { 'AGENTS.md': String(BASE['AGENTS.md']).replace('npm test', 'npm run test:unit') },
    want: { code: 0, verdict: 'pass', risk: 'medium', checks: ['command-changed'] } },
  { name: 'rule-removed', head: { 'packages/api/AGENTS.md': '# API\n' },
    want: { code: 0, verdict: 'pass', risk: 'medium', checks: ['rule-removed'] } },
  { name: 'deploy-unapproved', head: { 'AGENTS.md': `${BASE['AGENTS.md']}\n## Release\n\nPublish with \`pnpm publish --access public\` after review.\n` },
    want: { code: 1, verdict: 'fail', risk: 'high', checks: ['deploy-command'] } },
  { name: 'deploy-approved', head: { 'AGENTS.md': `${BASE['AGENTS.md']}\n## Release\n\nPublish with \`pnpm publish --access public\` after review.\n` },
    approvals: { approvers: ['alice'] }, want: { code: 0, verdict: 'pass', risk: 'high', checks: ['deploy-command'] } },
  { name: 'approvals-for-another-commit', head: { 'AGENTS.md': `${BASE['AGENTS.md']}\n## Release\n\nPublish with \`pnpm publish --access public\` after review.\n` },
    approvals: { approvers: ['alice'], head: 'other' }, want: { code: 1, verdict: 'fail', risk: 'high', checks: ['deploy-command'] } },
  { name: 'scope-to-repository', head: { '.claude/rules/ts.md': String(BASE['.claude/rules/ts.md']).replace('src/**', '**/*.ts') },
    want: { code: 1, verdict: 'fail', risk: 'high', checks: ['scope-to-repository'] } },
  { name: 'owners-not-in-team', base: { ...BASE, '.rulec/policy.yaml': POLICY_OWNERS },
    head: { 'AGENTS.md': `${BASE['AGENTS.md']}\n## Secrets\n\nRead NPM_TOKEN from the CI secret store.\n` },
    approvals: { approvers: ['mallory'], teams: { '@acme/security': ['sam'] } }, want: { code: 1, verdict: 'fail', risk: 'high', checks: ['credentials'] } },
  { name: 'owners-approved', base: { ...BASE, '.rulec/policy.yaml': POLICY_OWNERS },
    head: { 'AGENTS.md': `${BASE['AGENTS.md']}\n## Secrets\n\nRead NPM_TOKEN from the CI secret store.\n` },
    approvals: { approvers: ['sam'], teams: { '@acme/security': ['sam'] } }, want: { code: 0, verdict: 'pass', risk: 'high', checks: ['credentials'] } },
  // Head drops the owners from the policy: the base policy still decides, and the policy change itself is high risk.
  { name: 'policy-lowers-its-own-bar', base: { ...BASE, '.rulec/policy.yaml': POLICY_OWNERS },
    head: { '.rulec/policy.yaml': 'version: 1\nrisk:\n  classes:\n    high: { approvals: 0 }\n', 'AGENTS.md': `${BASE['AGENTS.md']}\n## Secrets\n\nRead NPM_TOKEN from the CI secret store.\n` },
    approvals: { approvers: ['mallory'] }, want: { code: 1, verdict: 'fail', risk: 'high', checks: ['credentials', 'policy-changed'] } },
  { name: 'enforced-violation', managed: '---\nenforce: true\n---\n# Security\n\nUse pnpm.\n', args: ['--managed', '{managed}'],
    head: { 'packages/api/AGENTS.md': `${BASE['packages/api/AGENTS.md']}\n## Tooling\n\nUse yarn.\n` },
    approvals: { approvers: ['alice'] }, want: { code: 1, verdict: 'fail', risk: 'medium', checks: ['toolchain-changed'] } },
];

describe('rulec check', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const h = history(c.base ?? BASE);
    made.push(h);
    const managedDir = join(h.dir, 'managed');
    if (c.managed) {
      mkdirSync(managedDir);
      writeFileSync(join(managedDir, 'security.md'), c.managed);
    }
    const head = h.commit('head', c.head);
    const env: Record<string, string> = {};
    if (c.approvals) {
      env.RULEC_APPROVALS = JSON.stringify({ head: c.approvals.head === 'other' ? h.commits.get('base') : head, approvers: c.approvals.approvers, teams: c.approvals.teams ?? {} });
    }
    const args = ['--base', 'main~1', ...(c.args ?? []).map((a) => (a === '{managed}' ? managedDir : a))];
    // One check, two reports: JSON on stdout, the text report through --report (the same reporter as stdout's).
    const textFile = join(h.dir, 'report.txt');
    const json = await run(h.repo, [...args, '--format', 'json', '--report', `text=${textFile}`], env);
    expect(json.err).toBe('');
    const report = JSON.parse(json.out) as CheckReport;
    expect(validateCheck(report)).toEqual([]);
    expect({ code: json.code, verdict: report.verdict, skipped: report.skipped, risk: report.risk?.level, checks: [...new Set(report.risk?.findings.map((f) => f.check) ?? [])].sort() })
      .toEqual({ code: c.want.code, verdict: c.want.verdict, skipped: c.want.skipped ?? false, risk: c.want.risk, checks: c.want.checks ?? [] });
    const text = readFileSync(textFile, 'utf8');
    expectTree(join(EXPECTED, c.name), new Map([['report.json', json.out.split(managedDir).join('{managed}')], ['report.txt', text.split(managedDir).join('{managed}')]]));
  });
});

describe('rulec check approvals input', () => {
  it('reads --approvals FILE (relative to the working directory) and reports an unreadable one', async () => {
    const h = history(BASE);
    made.push(h);
    const head = h.commit('head', { 'AGENTS.md': `${BASE['AGENTS.md']}\n## Release\n\nPublish with \`pnpm publish\`.\n` });
    writeFileSync(join(h.dir, 'approvals.json'), JSON.stringify({ head, approvers: ['alice'] }));
    const ok = JSON.parse((await run(h.repo, ['--base', 'main~1', '--format', 'json', '--approvals', '../approvals.json'])).out) as CheckReport;
    expect(ok).toMatchObject({ verdict: 'pass', approvals: { from: '../approvals.json', head, approvers: ['alice'] } });
    const missing = await run(h.repo, ['--base', 'main~1', '--format', 'json', '--approvals', 'nope.json']);
    const report = JSON.parse(missing.out) as CheckReport;
    expect(missing.code).toBe(1);
    expect(report.diagnostics.filter((d) => d.code === 'RC8004').map((d) => d.message)).toEqual(['approvals from nope.json are not used: cannot read the file (ENOENT)']);
  });
});
