/**
 * shell-host.ts: the one shell per process that starts rulec's git queries.
 * Each query sees the caller's environment and directory of the moment, its
 * input byte for byte; a directory that cannot be entered fails the request,
 * a host that dies fails only the queries in flight and the next request
 * starts another; the host reaps every subshell it starts, keeps no idle
 * process alive, and leaves no file behind.
 */
import { createHash } from 'node:crypto';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { closeSync, constants, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitBatch, startGitBatch } from '../../src/source/git-batch.js';
import { runStatus } from '../../src/source/git-run.js';
import { shellHostPid } from '../../src/source/shell-host.js';

const DIST = join(import.meta.dirname, '..', '..', 'dist', 'source', 'git-batch.js');
let repo: string;
beforeAll(() => {
  repo = mkdtempSync(join(tmpdir(), 'rulec-host-'));
  execFileSync('git', ['init', '-q', '--template=', repo]);
});
afterAll(() => rmSync(repo, { recursive: true, force: true }));

const text = (b: Buffer): string => b.toString('utf8');

/** Run `body` with process.env[name] set to `value` (or removed, for undefined), then put it back. */
async function withEnv<T>(name: string, value: string | undefined, body: () => Promise<T>): Promise<T> {
  const saved = process.env[name];
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
  try {
    return await body();
  } finally {
    if (saved === undefined) delete process.env[name];
    else process.env[name] = saved;
  }
}

/** The pids of the processes `pid` has started and not yet reaped (Linux). */
function childrenOf(pid: number): number[] {
  return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter((s) => s.trim() !== '').map(Number);
}

const echoVar = ['-c', 'alias.probe=!printf "[%s]" "${RULEC_HOST_PROBE-unset}"', 'probe'];

describe('the shell host', () => {
  it("gives each query the caller's environment of the moment: a variable set, changed, then removed", async () => {
    const seen: string[] = [];
    for (const value of ['one', "it's $HOME `x`\nline two", undefined]) {
      const { results } = await withEnv('RULEC_HOST_PROBE', value, () => gitBatch(repo, [echoVar]));
      seen.push(text(results[0]!.stdout));
    }
    expect(seen).toEqual(['[one]', "[it's $HOME `x`\nline two]", '[unset]']);
  });

  it('falls back to its own spawn for an environment a shell cannot set, with the same answer', async () => {
    const { results } = await withEnv('RULEC-NOT-A-NAME', 'x', () => withEnv('RULEC_HOST_PROBE', 'two', () => gitBatch(repo, [echoVar])));
    expect(text(results[0]!.stdout)).toBe('[two]');
  });

  it('passes input to git byte for byte', async () => {
    const input = 'a\0b\n\u00e9\u{1F600}\r\n'.repeat(5000);
    const r = await runStatus(repo, ['hash-object', '--stdin'], input);
    const bytes = Buffer.from(input);
    const expected = createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
    expect([r.code, text(r.stdout).trim()]).toEqual([0, expected]);
  });

  it('fails the request for a directory that cannot be entered, and answers the next one', async () => {
    const { each, all } = startGitBatch(join(repo, 'no-such-dir'), [['rev-parse', '--git-dir'], ['ls-files']], { shell: true });
    await expect(all).rejects.toThrow(/cannot run git there/);
    for (const answer of each) await expect(answer).rejects.toThrow(/cannot run git there/);
    expect((await gitBatch(repo, [['rev-parse', '--is-inside-work-tree']], { shell: true })).results[0]?.code).toBe(0);
  });

  it('reaps every subshell it starts', async () => {
    for (let i = 0; i < 40; i++) await gitBatch(repo, [['rev-parse', '--git-dir'], ['config', '--get', 'no.such-key']]);
    const pid = shellHostPid();
    expect(pid).toBeDefined();
    // The last request's subshell may still be ending: at most it is left.
    await new Promise((r) => setTimeout(r, 200));
    expect(childrenOf(pid as number).length).toBeLessThanOrEqual(1);
  });

  it('fails only the queries in flight when the host dies, and starts another for the next request', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rulec-gate-'));
    const fifo = join(dir, 'gate');
    execFileSync('mkfifo', [fifo]);
    const gate = openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK);
    try {
      const { each, all } = startGitBatch(repo, [['rev-parse', '--git-dir'], ['-c', `alias.slow=!read -r line < '${fifo}'`, 'slow']]);
      expect((await each[0])?.code).toBe(0);
      const pid = shellHostPid() as number;
      process.kill(pid, 'SIGKILL');
      const { results } = await all;
      expect(results.map((r) => r.code)).toEqual([0, -1]);
      writeSync(gate, 'go\n');
      expect((await gitBatch(repo, [['rev-parse', '--is-inside-work-tree']])).results[0]?.code).toBe(0);
      expect(shellHostPid()).not.toBe(pid);
    } finally {
      closeSync(gate);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('leaves nothing in the temporary directory when its process is killed', async () => {
    if (!existsSync(DIST)) throw new Error('dist/ is missing: npm run build');
    const tmp = mkdtempSync(join(tmpdir(), 'rulec-hosttmp-'));
    try {
      const script = `import(${JSON.stringify(DIST)}).then(async (m) => { await m.gitBatch(process.argv[1], [['rev-parse', '--is-inside-work-tree']]); console.log('ready'); setInterval(() => {}, 1000); });`;
      const child = spawn(process.execPath, ['-e', script, repo], { env: { ...process.env, TMPDIR: tmp }, stdio: ['ignore', 'pipe', 'inherit'] });
      await new Promise<void>((res, rej) => {
        child.stdout.on('data', (b: Buffer) => { if (b.toString().includes('ready')) res(); });
        child.on('exit', (code) => rej(new Error(`ended before it was ready (${code})`)));
      });
      expect(readdirSync(tmp)).toHaveLength(1);
      child.kill('SIGKILL');
      // No 'exit' handler runs: the shell sees the end of its input and removes the directory.
      const deadline = Date.now() + 10_000;
      while (readdirSync(tmp).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(readdirSync(tmp)).toEqual([]);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('keeps no idle process alive and leaves nothing in the temporary directory', () => {
    if (!existsSync(DIST)) throw new Error('dist/ is missing: npm run build');
    const tmp = mkdtempSync(join(tmpdir(), 'rulec-hosttmp-'));
    try {
      const script = `import(${JSON.stringify(DIST)}).then(async (m) => { const r = await m.gitBatch(process.argv[1], [['rev-parse', '--is-inside-work-tree']]); console.log(r.results[0].code); });`;
      const r = spawnSync(process.execPath, ['-e', script, repo], { env: { ...process.env, TMPDIR: tmp }, encoding: 'utf8', timeout: 20_000 });
      expect([r.status, r.stdout.trim(), r.error]).toEqual([0, '0', undefined]);
      expect(readdirSync(tmp)).toEqual([]);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
