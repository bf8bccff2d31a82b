/**
 * action.yml: its shape, its comment marker (the one the Markdown reporter
 * writes, so a push updates rulec's comment instead of adding one), and the
 * `rulec check` step's shell run as GitHub runs it (bash -e -o pipefail) with
 * a stub rulec: the arguments it passes, the outputs it sets, the job summary.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { COMMENT_MARKER } from '../../src/report/reporters/markdown-parts.js';

interface Step { name?: string; uses?: string; if?: string; run?: string; with?: Record<string, string>; env?: Record<string, string> }
const action = parse(readFileSync(join(import.meta.dirname, '..', '..', 'action.yml'), 'utf8')) as { runs: { using: string; steps: Step[] }; inputs: Record<string, { default?: string }> };
const step = (name: string): Step => action.runs.steps.find((s) => s.name === name) as Step;
const tmp = mkdtempSync(join(tmpdir(), 'rulec-action-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('action.yml', () => {
  it('is a composite action: setup-node, closure cache, approvals, check, comment, SARIF upload, artifact, verdict', () => {
    expect(action.runs.using).toBe('composite');
    expect(action.runs.steps.map((s) => s.uses?.replace(/@.*/, '') ?? s.name)).toEqual([
      'actions/setup-node', 'actions/cache', 'actions/github-script', 'rulec check', 'actions/github-script', 'github/codeql-action/upload-sarif', 'actions/upload-artifact', 'Fail when rulec check failed',
    ]);
    expect(step('Upload SARIF to code scanning').with?.sarif_file).toBe('${{ steps.check.outputs.dir }}/report.sarif');
  });

  it('updates the comment that carries the marker the Markdown reporter writes', () => {
    const script = step('Comment on the pull request').with?.script ?? '';
    expect(script).toContain(`const marker = '${COMMENT_MARKER}';`);
    expect(script).toContain('updateComment');
    expect(script).toContain('createComment');
  });

  it('its check step passes the refs, the approvals and every report, and sets the outputs', () => {
    const stub = join(tmp, 'rulec-stub');
    const argsFile = join(tmp, 'args');
    writeFileSync(stub, `#!/usr/bin/env bash
printf '%s\\n' "$@" > ${JSON.stringify(argsFile)}
for a in "$@"; do case "$a" in markdown=*) printf '### report\\n' > "\${a#markdown=}";; esac; done
exit 1
`);
    chmodSync(stub, 0o755);
    const out = join(tmp, 'github-output');
    const summary = join(tmp, 'summary');
    writeFileSync(out, '');
    writeFileSync(summary, '');
    const run = spawnSync('bash', ['--noprofile', '--norc', '-e', '-o', 'pipefail', '-c', step('rulec check').run as string], {
      cwd: tmp, encoding: 'utf8',
      env: { PATH: process.env.PATH, RUNNER_TEMP: tmp, GITHUB_OUTPUT: out, GITHUB_STEP_SUMMARY: summary, RULEC_CMD: stub,
        RULEC_BASE: 'a'.repeat(40), RULEC_HEAD: 'b'.repeat(40), RULEC_ARGS: '--policy .rulec/policy.yaml', RULEC_APPROVALS_FILE: join(tmp, 'approvals.json') },
    });
    expect(run.status, run.stderr).toBe(0);
    const dir = join(tmp, 'rulec-report');
    expect(readFileSync(argsFile, 'utf8').trim().split('\n')).toEqual([
      'check', '--format', 'github', '--report', `markdown=${dir}/report.md`, '--report', `sarif=${dir}/report.sarif`,
      '--report', `json=${dir}/report.json`, '--report', `html=${dir}/report.html`,
      '--base', 'a'.repeat(40), '--head', 'b'.repeat(40), '--approvals', join(tmp, 'approvals.json'), '--policy', '.rulec/policy.yaml',
    ]);
    expect(readFileSync(out, 'utf8')).toBe(`exit-code=1\ndir=${dir}\nhas-md=true\nhas-sarif=false\nhas-html=false\n`);
    expect(readFileSync(summary, 'utf8')).toBe('### report\n');
  });
});
