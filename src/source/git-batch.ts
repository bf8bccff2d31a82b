/**
 * Several read-only git queries, run side by side: through the process's
 * shell host (shell-host.ts: node forks once for the shell, the shell forks
 * every git), or, where there is no POSIX shell (Windows) or the environment
 * is one a shell cannot set, each query its own spawn (git-run.ts's
 * spawnStatus), with the same results.
 *
 * An answer is there once its query and those before it have ended
 * (startGitBatch), so a caller lists its quick queries first.
 */
import { queryEnv } from './git-env.js';
import { spawnStatus } from './git-run.js';
import { hostedGit } from './shell-host.js';

export interface QueryResult {
  code: number;
  stdout: Buffer;
}

export interface BatchResult {
  results: QueryResult[];
  /** Everything the queries wrote to stderr, together. */
  stderr: string;
}

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
 * `shell: false` spawns each query itself, as where there is no shell host
 * (the tests compare the two ways).
 */
export function startGitBatch(cwd: string, queries: readonly (readonly string[])[], { shell = true }: { shell?: boolean } = {}): RunningBatch {
  if (queries.length === 0) return { each: [], all: Promise.resolve({ results: [], stderr: '' }) };
  const hosted = shell ? hostedGit(cwd, queries.map((args) => ({ args })), queryEnv()) : null;
  if (hosted !== null) return hosted;
  // A git that cannot be started answers as the shell's would: status 127, nothing on stdout.
  const runs = queries.map((q) => spawnStatus(cwd, q).catch((e: unknown) => ({ code: 127, stdout: Buffer.alloc(0), stderr: `${String(e)}\n` })));
  const all = Promise.all(runs).then((each) => ({ results: each.map((r) => ({ code: r.code, stdout: r.stdout })), stderr: each.map((r) => r.stderr).join('') }));
  return { each: runs.map((r) => r.then(({ code, stdout }) => ({ code, stdout }))), all };
}
