/**
 * Several read-only git queries, run side by side by one shell: node forks
 * once instead of once per query. Forking copies the parent's page tables,
 * so each spawn costs node more the larger its heap (2 ms for a bare node, 6
 * ms for a compiling one, over 10 ms for a test worker), while the shell,
 * small, forks git cheaply. Discovery asks git six things per build.
 *
 * Each query writes its stdout to a pipe of its own (file descriptors 3, 4,
 * …), so output needs no framing and may hold any byte; the shell reports
 * each exit status on its stdout. The queries run concurrently, as separate
 * spawns did. Where there is no POSIX shell (Windows), each query is its own
 * spawn (git-run.ts's runStatus), with the same results.
 *
 * Every argument is single-quoted for the shell: nothing in a query is
 * expanded or split, whatever it holds.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { queryEnv } from './git-env.js';
import { runStatus } from './git-run.js';

export interface QueryResult {
  code: number;
  stdout: Buffer;
}

export interface BatchResult {
  results: QueryResult[];
  /** Everything the queries wrote to stderr, together. */
  stderr: string;
}

const SHELL = '/bin/sh';
/** Descriptors 3 to 9: a POSIX shell need not redirect above 9 (dash does not). */
const MAX_QUERIES = 7;

/** Run `git -c core.quotePath=false ARGS` for each query in `cwd`, concurrently; results in query order. */
export async function gitBatch(cwd: string, queries: readonly (readonly string[])[], { shell = shellAvailable() }: { shell?: boolean } = {}): Promise<BatchResult> {
  if (queries.length === 0) return { results: [], stderr: '' };
  if (queries.length > MAX_QUERIES) throw new Error(`gitBatch: at most ${MAX_QUERIES} queries (file descriptors 3 to 9), got ${queries.length}`);
  if (!shell) {
    // A git that cannot be started answers as the shell's would: status 127, nothing on stdout.
    const each = await Promise.all(queries.map((q) => runStatus(cwd, q).catch((e: unknown) => ({ code: 127, stdout: Buffer.alloc(0), stderr: `${String(e)}\n` }))));
    return { results: each.map((r) => ({ code: r.code, stdout: r.stdout })), stderr: each.map((r) => r.stderr).join('') };
  }
  return new Promise((resolve, reject) => {
    const child = spawn(SHELL, ['-c', batchScript(queries)], {
      cwd, env: queryEnv(), stdio: ['ignore', 'pipe', 'pipe', ...queries.map(() => 'pipe' as const)],
    });
    const outs = queries.map((_, i) => collect(child.stdio[3 + i] as Readable | null));
    const status = collect(child.stdout);
    const stderr = collect(child.stderr);
    child.on('error', reject);
    child.on('close', () => {
      const codes = new Map<number, number>();
      for (const line of Buffer.concat(status).toString('utf8').split('\n')) {
        const [i, code] = line.split(' ').map(Number);
        if (i !== undefined && code !== undefined && Number.isInteger(i) && Number.isInteger(code)) codes.set(i, code);
      }
      // A query the shell never reported on (killed with it) counts as failed.
      resolve({
        results: queries.map((_, i) => ({ code: codes.get(i) ?? -1, stdout: Buffer.concat(outs[i]!) })),
        stderr: Buffer.concat(stderr).toString('utf8'),
      });
    });
  });
}

/**
 * The shell script: each query in the background, its stdout on its own descriptor and every
 * other extra descriptor closed — so nothing git starts (an fsmonitor hook, a daemon) holds
 * another query's pipe open, and a GIT_TRACE=4 in the caller's environment cannot write into
 * another query's answer — then "<index> <status>" lines. `command git`: a shell function named
 * git (bash exports them) is not what runs.
 */
function batchScript(queries: readonly (readonly string[])[]): string {
  const fds = queries.map((_, i) => 3 + i);
  const close = (keep: number | null): string => fds.filter((fd) => fd !== keep).map((fd) => `${fd}>&-`).join(' ');
  // git's stdout is a copy of its descriptor, and then every extra descriptor is closed, its own too.
  const jobs = queries.map((q, i) => `{ command git -c core.quotePath=false ${q.map(quote).join(' ')} >&${3 + i} ${close(null)}; echo "${i} $?"; } ${close(3 + i)} &`);
  return `${jobs.join('\n')}\nwait\n`;
}

/** `'…'` with each `'` as `'\''`: the shell takes it as one word, exactly. */
function quote(arg: string): string {
  return `'${arg.replaceAll("'", "'\\''")}'`;
}

function collect(stream: Readable | null): Buffer[] {
  const chunks: Buffer[] = [];
  stream?.on('data', (b: Buffer) => chunks.push(b));
  return chunks;
}

let available: boolean | undefined;
function shellAvailable(): boolean {
  available ??= process.platform !== 'win32' && existsSync(SHELL);
  return available;
}
