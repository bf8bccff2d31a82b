/**
 * One git query: `git -c core.quotePath=false ARGS` in `cwd` with rulec's
 * environment (queryEnv: only object reads happen, no index refresh), stdout
 * as bytes (paths and blobs are not always UTF-8). Through the process's
 * shell host where there is one (shell-host.ts says why), else its own spawn.
 */
import { spawn } from 'node:child_process';
import { queryEnv } from './git-env.js';
import { hostedGit } from './shell-host.js';

export interface StatusResult {
  code: number;
  stdout: Buffer;
  stderr: string;
}

/** Run git with only object reads allowed to happen; stdout as bytes (paths and blobs are not always UTF-8). */
export async function run(cwd: string, args: readonly string[], input?: string): Promise<Buffer> {
  const r = await runStatus(cwd, args, input);
  if (r.code !== 0) throw new Error(`git ${args[0]} failed: ${r.stderr.trim()}`);
  return r.stdout;
}

/** Like run(), but resolves with the exit status instead of failing on a non-zero one. */
export async function runStatus(cwd: string, args: readonly string[], input?: string): Promise<StatusResult> {
  const hosted = hostedGit(cwd, [{ args, input }], queryEnv());
  if (hosted === null) return spawnStatus(cwd, args, input);
  const { results: [answer], stderr } = await hosted.all;
  return { code: answer?.code ?? -1, stdout: answer?.stdout ?? Buffer.alloc(0), stderr };
}

/** runStatus() as a process of its own, started by node. */
export function spawnStatus(cwd: string, args: readonly string[], input?: string): Promise<StatusResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn('git', ['-c', 'core.quotePath=false', ...args], { cwd, env: queryEnv(), stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout?.on('data', (b: Buffer) => out.push(b));
    child.stderr?.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code: code ?? -1, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') }));
    if (child.stdin) {
      // git may exit before it reads all of its input (a failed ref): its status says why, not EPIPE.
      child.stdin.on('error', () => undefined);
      child.stdin.end(input);
    }
  });
}
