/**
 * Several read-only git queries, run side by side by one shell: node forks
 * once instead of once per query. Forking copies the parent's page tables,
 * so each spawn costs node more the larger its heap (2 ms for a bare node, 6
 * ms for a compiling one, over 10 ms for a test worker), while the shell,
 * small, forks git cheaply. Discovery asks git six things per build.
 *
 * Each query writes its stdout to a pipe of its own (file descriptors 3, 4,
 * …), so output needs no framing and may hold any byte; the shell reports
 * each exit status on its stdout, in query order. The queries run
 * concurrently, as separate spawns did; an answer is there once its query and
 * those before it have ended (startGitBatch), so a caller lists its quick
 * queries first. Where there is no POSIX shell (Windows), each query is its
 * own spawn (git-run.ts's runStatus), with the same results.
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
export async function gitBatch(cwd: string, queries: readonly (readonly string[])[], options: { shell?: boolean } = {}): Promise<BatchResult> {
  return startGitBatch(cwd, queries, options).all;
}

/** A batch as it runs: each query's answer once it and those before it have ended, and all of them with the stderr. */
export interface RunningBatch {
  each: Promise<QueryResult>[];
  all: Promise<BatchResult>;
}

/**
 * gitBatch(), with each query's answer as soon as it and the queries before
 * it are whole: a caller can work with a quick answer (the index) while a
 * slow query listed after it (a walk of the work tree) still runs.
 */
export function startGitBatch(cwd: string, queries: readonly (readonly string[])[], { shell = shellAvailable() }: { shell?: boolean } = {}): RunningBatch {
  if (queries.length === 0) return { each: [], all: Promise.resolve({ results: [], stderr: '' }) };
  if (queries.length > MAX_QUERIES) throw new Error(`gitBatch: at most ${MAX_QUERIES} queries (file descriptors 3 to 9), got ${queries.length}`);
  if (!shell) {
    // A git that cannot be started answers as the shell's would: status 127, nothing on stdout.
    const runs = queries.map((q) => runStatus(cwd, q).catch((e: unknown) => ({ code: 127, stdout: Buffer.alloc(0), stderr: `${String(e)}\n` })));
    const all = Promise.all(runs).then((each) => ({ results: each.map((r) => ({ code: r.code, stdout: r.stdout })), stderr: each.map((r) => r.stderr).join('') }));
    return { each: runs.map((r) => r.then(({ code, stdout }) => ({ code, stdout }))), all };
  }
  const answers = queries.map(() => settable<QueryResult>());
  const all = new Promise<BatchResult>((resolve, reject) => {
    const child = spawn(SHELL, ['-c', batchScript(queries)], {
      cwd, env: queryEnv(), stdio: ['ignore', 'pipe', 'pipe', ...queries.map(() => 'pipe' as const)],
    });
    // A query is answered once the shell has reported its status and its pipe has ended (the
    // shell keeps no copy of it open: batchScript closes them), whichever comes last.
    const codes = new Map<number, number>();
    const ended = new Set<number>();
    const outs = queries.map((_, i) => collect(child.stdio[3 + i] as Readable | null, () => {
      ended.add(i);
      answer(i);
    }));
    const answer = (i: number): void => {
      const code = codes.get(i);
      if (code !== undefined && ended.has(i)) answers[i]?.resolve({ code, stdout: Buffer.concat(outs[i] as Buffer[]) });
    };
    let pending = '';
    child.stdout?.on('data', (b: Buffer) => {
      const lines = (pending + b.toString('utf8')).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const [i, code] = line.split(' ').map(Number);
        if (i === undefined || code === undefined || !Number.isInteger(i) || !Number.isInteger(code) || codes.has(i)) continue;
        codes.set(i, code);
        answer(i);
      }
    });
    const stderr = collect(child.stderr);
    child.on('error', reject);
    child.on('close', () => {
      // A query the shell never reported on (killed with it) counts as failed.
      const results = queries.map((_, i) => ({ code: codes.get(i) ?? -1, stdout: Buffer.concat(outs[i] as Buffer[]) }));
      results.forEach((r, i) => answers[i]?.resolve(r));
      resolve({ results, stderr: Buffer.concat(stderr).toString('utf8') });
    });
  });
  // A shell that cannot start (an 'error' event, or spawn throwing: ENOMEM, an argument with a NUL)
  // fails every answer not yet given, so no caller waits on one forever. Whoever awaits only `all`
  // must not see the same failure again, unhandled, from `each`.
  all.catch((e: unknown) => {
    for (const a of answers) a.reject(e);
  });
  for (const a of answers) a.promise.catch(() => undefined);
  return { each: answers.map((a) => a.promise), all };
}

/** A promise with its resolve and reject (the first call settles it; later ones do nothing). */
function settable<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (e: unknown) => void } {
  let resolve!: (value: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/**
 * The shell script: each query a simple command in the background, so the shell forks once and
 * the child becomes git (a `{ git; echo $?; } &` group forked twice: a subshell, then git). Its
 * stdout is a copy of its own descriptor and then every extra descriptor is closed, its own too —
 * so nothing git starts (an fsmonitor hook, a daemon) holds another query's pipe open, and a
 * GIT_TRACE=4 in the caller's environment cannot write into another query's answer. Then the
 * shell closes its own copies, so each pipe ends with its query, not with the last one, and waits
 * for each query in turn: "<index> <status>" lines, in query order (POSIX `wait` has no "whichever
 * ends first"). `command git`: a shell function named git (bash exports them) is not what runs.
 */
function batchScript(queries: readonly (readonly string[])[]): string {
  const close = queries.map((_, i) => `${3 + i}>&-`).join(' ');
  const jobs = queries.map((q, i) => `command git -c core.quotePath=false ${q.map(quote).join(' ')} >&${3 + i} ${close} &\nq${i}=$!`);
  const waits = queries.map((_, i) => `wait "$q${i}"; echo "${i} $?"`);
  return `${jobs.join('\n')}\nexec ${close}\n${waits.join('\n')}\n`;
}

/** `'…'` with each `'` as `'\''`: the shell takes it as one word, exactly. */
function quote(arg: string): string {
  return `'${arg.replaceAll("'", "'\\''")}'`;
}

function collect(stream: Readable | null, onEnd?: () => void): Buffer[] {
  const chunks: Buffer[] = [];
  stream?.on('data', (b: Buffer) => chunks.push(b));
  if (onEnd) stream?.on('end', onEnd);
  return chunks;
}

let available: boolean | undefined;
function shellAvailable(): boolean {
  available ??= process.platform !== 'win32' && existsSync(SHELL);
  return available;
}
