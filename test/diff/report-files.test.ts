/**
 * `rulec diff` and `rulec check` through the CLI's command table (in-process
 * runCli): both are listed in `rulec --help`, and `--report FMT=FILE` writes
 * each requested format beside the stdout format, like build and lint.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BundleDiff } from '../../src/diff/bundle-diff.js';
import type { CheckReport } from '../../src/diff/check-model.js';
import { runCli } from '../helpers/run-cli.js';
import { history, type History } from './history.js';
import { validateCheck, validateDiff } from './schema.js';

let h: History;

beforeAll(() => {
  h = history({ 'AGENTS.md': '# Repo\n\n## Testing\n\n- Run `npm test` before committing.\n', 'src/a.ts': 'export {};\n' });
  h.commit('head', { 'AGENTS.md': '# Repo\n\n## Testing\n\n- Run `pnpm test` before committing.\n' });
});
afterAll(() => h.cleanup());

const reportArgs = (name: string): string[] =>
  ['markdown', 'sarif', 'github', 'html', 'json'].flatMap((f) => ['--report', `${f}=${join(h.dir, `${name}.${f}`)}`]);

describe('diff and check in the command table', () => {
  it('rulec --help lists both', async () => {
    const r = await runCli(['--help']);
    expect(r.stdout).toMatch(/^ {2}diff {10}\S/m);
    expect(r.stdout).toMatch(/^ {2}check {9}\S/m);
  });

  it('rulec diff --report FMT=FILE writes every format; stdout keeps --format', async () => {
    const r = await runCli(['diff', 'git:main~1', 'git:main', '--format', 'text', ...reportArgs('diff')], h.repo);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toMatch(/^rulec diff git:main~1 → git:main\n/);
    const json = JSON.parse(readFileSync(join(h.dir, 'diff.json'), 'utf8')) as BundleDiff;
    expect(validateDiff(json)).toEqual([]);
    expect(json.winners.map((w) => [w.topic, w.new?.value])).toContainEqual(['test-command', 'pnpm test']);
    expect(JSON.parse(readFileSync(join(h.dir, 'diff.sarif'), 'utf8'))).toMatchObject({ version: '2.1.0' });
    expect(readFileSync(join(h.dir, 'diff.markdown'), 'utf8')).toContain('pnpm test');
    expect(readFileSync(join(h.dir, 'diff.html'), 'utf8')).toMatch(/^<!DOCTYPE html>/i);
    expect(existsSync(join(h.dir, 'diff.github'))).toBe(true);
  });

  it('rulec check --report FMT=FILE writes every format, and the exit code is the verdict', async () => {
    const r = await runCli(['check', '--base', 'main~1', '--format', 'json', ...reportArgs('check')], h.repo);
    const report = JSON.parse(r.stdout) as CheckReport;
    expect(validateCheck(report)).toEqual([]);
    expect([r.code, report.verdict]).toEqual([0, 'pass']);
    expect(JSON.parse(readFileSync(join(h.dir, 'check.json'), 'utf8'))).toEqual(report);
    expect(readFileSync(join(h.dir, 'check.markdown'), 'utf8')).toContain('pnpm test');
    expect(readFileSync(join(h.dir, 'check.html'), 'utf8')).toMatch(/^<!DOCTYPE html>/i);
  });

  it('rulec check with no rule change still writes its reports', async () => {
    h.commit('code only', { 'src/a.ts': 'export const a = 1;\n' });
    const r = await runCli(['check', '--base', 'main~1', '--report', `json=${join(h.dir, 'skip.json')}`], h.repo);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout.split('\n')).toHaveLength(2);
    expect(JSON.parse(readFileSync(join(h.dir, 'skip.json'), 'utf8'))).toMatchObject({ skipped: true, verdict: 'pass' });
  });
});
