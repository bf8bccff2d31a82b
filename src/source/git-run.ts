/**
 * One git query as its own process: `git -c core.quotePath=false ARGS` in
 * `cwd` with rulec's environment (queryEnv: only object reads happen, no
 * index refresh), stdout as bytes (paths and blobs are not always UTF-8).
 * Several independent queries are cheaper through one shell (git-batch.ts).
 */
import { spawn } from 'node:child_process';
import { queryEnv } from './git-env.js';

/** Run git with only object reads allowed to happen; stdout as bytes (paths and blobs are not always UTF-8). */
export async function run(cwd: string, args: readonly string[], input?: string): Promise<Buffer> {
  const r = await runStatus(cwd, args, input);
  if (r.code !== 0) throw new Error(`git ${args[0]} failed: ${r.stderr.trim()}`);
  return r.stdout;
}

/** Like run(), but resolves with the exit status instead of failing on a non-zero one. */
export function runStatus(cwd: string, args: readonly string[], input?: string): Promise<{ code: number; stdout: Buffer; stderr: string }> {
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
