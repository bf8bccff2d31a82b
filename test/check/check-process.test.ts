/**
 * The built command: `rulec check` with no rule file changed prints one line,
 * exits 0 and loads neither the compiler nor a tokenizer (every module the
 * process resolves is traced; the command table of cli/main.ts loads only
 * the command that runs, so the trace of `dist/cli/bin.js check` is what
 * check loads); with a rule change the binary exits 1 on a risky change and 0
 * once approved. Needs `npm run build`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { history, type History } from '../diff/history.js';

const CLI = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'bin.js');
const REGISTER = join(import.meta.dirname, 'trace-register.mjs');
const made: History[] = [];
afterAll(() => { for (const h of made) h.cleanup(); });

/**
 * Runs the built CLI in `cwd`. With `traced`, every module the process resolves is listed in
 * `loaded` (the hooks run on a thread of their own and cost each run about 0.4 s of CPU, so only
 * the test that looks at the list asks for it).
 */
function rulec(cwd: string, args: string[], { env = {}, traced = false }: { env?: Record<string, string>; traced?: boolean } = {}): { status: number | null; stdout: string; stderr: string; loaded: string[] } {
  expect(existsSync(CLI), 'run `npm run build` first').toBe(true);
  const trace = traced ? join(cwd, '..', `trace-${Math.random().toString(36).slice(2)}.txt`) : null;
  const r = spawnSync(process.execPath, [...(trace ? ['--import', REGISTER] : []), CLI, ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', ...(trace ? { RULEC_TRACE_FILE: trace } : {}), ...env } });
  const loaded = trace && existsSync(trace) ? readFileSync(trace, 'utf8').split('\n').filter(Boolean) : [];
  if (trace) rmSync(trace, { force: true });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, loaded };
}

describe('rulec check (process)', () => {
  it('no rule file changed: one line, exit 0, no compiler, no tokenizer and no simple-git loaded', () => {
    const h = history({ 'AGENTS.md': '# Repo\n\nUse pnpm.\n', 'src/a.ts': 'export {};\n', 'README.md': '# Readme\n' });
    made.push(h);
    h.commit('head', { 'src/a.ts': 'export const a = 1;\n', 'README.md': '# Readme\n\nMore.\n' });
    const r = rulec(h.repo, ['check', '--base', 'main~1'], { traced: true });
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(r.stdout).toMatch(/^rulec check main~1 \([0-9a-f]{12}\) → HEAD \([0-9a-f]{12}\): no rule file changed, nothing to check \(base: given with --base\)\n$/);
    const ours = r.loaded.filter((u) => u.includes('/dist/'));
    expect(ours.some((u) => u.endsWith('/cli/commands/check.js'))).toBe(true);
    expect(r.loaded.filter((u) => /\/(compile|diff-bundles|check-run|token-count|build|lint|explain)\.js$|js-tiktoken|simple-git/.test(u))).toEqual([]);
    // The closure of base's tree is kept in the git directory for the next check, never in the work tree.
    expect(readdirSync(join(h.repo, '.git', 'rulec', 'closures'))).toHaveLength(1);
    expect(rulec(h.repo, ['check', '--base', 'main~1']).stdout).toBe(r.stdout);
  });

  it('a risky rule change fails without approval and passes with one for the head commit', () => {
    const h = history({ 'AGENTS.md': '# Repo\n\nUse pnpm.\n', 'src/a.ts': 'export {};\n' });
    made.push(h);
    const head = h.commit('head', { 'AGENTS.md': '# Repo\n\nUse pnpm.\n\n## Release\n\nRun `pnpm publish` from main.\n' });
    const unapproved = rulec(h.repo, ['check', '--base', 'main~1']);
    expect(unapproved.status).toBe(1);
    expect(unapproved.stdout).toContain('error RC8001: adds a deploy, publish or release command [deploy-command]');
    const approved = rulec(h.repo, ['check', '--base', 'main~1', '--format', 'json'], { env: { RULEC_APPROVALS: JSON.stringify({ head, approvers: ['alice'] }) } });
    expect(approved.status).toBe(0);
    expect(JSON.parse(approved.stdout)).toMatchObject({ verdict: 'pass', risk: { level: 'high', approved: true } });
  });
});
