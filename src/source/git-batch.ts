/**
 * Several read-only git queries, run side by side by one shell: node forks
 * once instead of once per query. Forking copies the parent's page tables,
 * so each spawn costs node more the larger its heap (2 ms for a bare node, 6
 * ms for a compiling one, over 10 ms for a test worker), while the shell,
 * small, forks git cheaply. Discovery asks git five things per build.
 *
 * Each query writes its stdout to a pipe of its own (file descriptors 3, 4,
 * …), so output needs no framing and may hold any byte; the shell reports
 * each exit status on its stdout. The queries run concurrently, as separate
 * spawns did. Where there is no POSIX shell (Windows), each query is its own
 * spawn (git-tree's runStatus), with the same results.
 *
 * Every argument is single-quoted for the shell: nothing in a query is
 * expanded or split, whatever it holds.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { queryEnv } from './git-env.js';
import { runStatus } from './git-tree.js';

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

/** Run `git -c core.quotePath=false ARGS` for each query in `cwd`, concurrently; results in query order. */
export async function gitBatch(cwd: string, queries: readonly (readonly string[])[], { shell = shellAvailable() }: { shell?: boolean } = {}): Promise<BatchResult> {
  if (queries.length === 0) return { results: [], stderr: '' };
  if (!shell) {
    const each = await Promise.all(queries.map((q) => runStatus(cwd, q)));
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

/** The shell script: each query in the background, stdout to its own descriptor, then "<index> <status>" lines. */
function batchScript(queries: readonly (readonly string[])[]): string {
  const jobs = queries.map((q, i) => `{ git -c core.quotePath=false ${q.map(quote).join(' ')} >&${3 + i}; echo "${i} $?"; } &`);
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
