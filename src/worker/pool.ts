/**
 * Work for the second core. Building tiktoken's rank table costs close to a
 * second of CPU; a worker builds it in parallel with the rest of the pipeline,
 * then lints, counts tokens and evaluates agent profiles while the main thread
 * resolves and scans for conflicts.
 * When the compiled worker is not available (running from TypeScript sources)
 * or fails, the same code runs in-process: same results.
 */
import type { Worker } from 'node:worker_threads';
import { countTokens, startLedger, takeLedger, type TokenCounts } from '../validate/token-count.js';
import { evaluateProfileJob, type ProfileJob } from '../profiles/build-view.js';
import type { ProfileEvaluation } from '../profiles/evaluate.js';
import type { StageResult } from '../types.js';
import { runLintJob, type LintAnswer, type LintJob } from '../validate/lint-job.js';
import type { Job } from './background.js';
import { keyOf, newWorker, park, take, workerAvailable } from './threads.js';

export interface Background {
  /** Where jobs run: on the worker thread, or in this thread (no compiled worker, or it failed). */
  readonly where: 'worker' | 'in-process';
  /** The worker thread's id (null in-process): a compile after a closed one runs on the same thread. */
  readonly thread: number | null;
  count(texts: string[]): Promise<number[]>;
  profiles(job: ProfileJob): Promise<StageResult<ProfileEvaluation>>;
  /** Lint the job's files (validate/lint-job.ts). */
  lint(job: LintJob): Promise<LintAnswer>;
  /** Take `known` as counted, and record every count asked for from now on (jobs run in order). */
  startLedger(known: TokenCounts): Promise<void>;
  /** The counts asked for since startLedger, by encoding and text digest; recording stops. */
  takeLedger(): Promise<TokenCounts>;
  /**
   * Once every job sent is answered: park the worker for the next compile in this process (`keep`,
   * the default), or end it, freeing its heap. A second call does nothing.
   */
  close(keep?: boolean): Promise<void>;
}

function inProcess(encoding: string): Background {
  return {
    where: 'in-process',
    thread: null,
    count: async (texts) => texts.map((t) => countTokens(encoding, t)),
    profiles: async (job) => evaluateProfileJob(job),
    lint: async (job) => runLintJob(job),
    startLedger: async (known) => startLedger(known),
    takeLedger: async () => takeLedger(),
    close: async () => undefined,
  };
}

/** `profiles`: whether agent profiles will be evaluated (their encoding is then warmed too). */
export function startBackground(encoding: string, profiles = true): Background {
  const local = inProcess(encoding);
  if (!workerAvailable()) return local;
  const key = keyOf({ encoding, profiles });
  let worker: Worker;
  try {
    worker = take(key) ?? newWorker({ encoding, profiles });
  } catch {
    return local;
  }
  let failed = false;
  let closed = false;
  // The worker answers jobs in the order they were posted: a queue of the callers waiting.
  const pending: { resolve: (answer: unknown) => void; reject: (e: unknown) => void; fallback: () => Promise<unknown> }[] = [];
  const onMessage = (answer: unknown): void => { pending.shift()?.resolve(answer); };
  const onError = (): void => {
    failed = true;
    for (const p of pending.splice(0)) p.fallback().then(p.resolve, p.reject);
  };
  worker.on('message', onMessage);
  worker.on('error', onError);
  // A worker that exits with jobs unanswered (killed, out of memory) would leave them waiting forever.
  worker.on('exit', onError);
  // Every answer not yet given, whoever gives it: close() waits for all of them, so a worker goes
  // back to the pool only when nothing it was sent is still queued on it.
  const open = new Set<Promise<unknown>>();
  const run = <T>(job: Job, fallback: () => Promise<T>): Promise<T> => {
    if (failed) return fallback();
    const answer = new Promise<T>((resolve, reject) => {
      pending.push({ resolve: resolve as (answer: unknown) => void, reject, fallback });
      // Posted now, not from a later microtask: the main thread goes on computing for seconds
      // (conflicts, lint) before it next yields, and the worker must start meanwhile.
      try {
        worker.postMessage(job);
      } catch {
        pending.pop();
        fallback().then(resolve, reject);
      }
    });
    open.add(answer);
    const settle = (): void => void open.delete(answer);
    answer.then(settle, settle);
    return answer;
  };
  return {
    get where() { return failed ? 'in-process' : 'worker'; },
    thread: worker.threadId,
    count: (texts) => run({ kind: 'count', texts }, () => local.count(texts)),
    profiles: (job) => run({ kind: 'profiles', job }, () => local.profiles(job)),
    lint: (job) => run({ kind: 'lint', job }, () => local.lint(job)),
    // A worker that fails mid-build leaves its ledger behind: the in-process fallback then has
    // none of it, so the build keeps fewer counts (never wrong ones).
    startLedger: (known) => run({ kind: 'start-ledger', known }, () => local.startLedger(known)),
    takeLedger: () => run({ kind: 'take-ledger' }, () => local.takeLedger()),
    close: async (keep = true) => {
      if (closed) return;
      closed = true;
      // Once its jobs are answered the worker is idle: keep it for the next compile, unless it failed
      // or the caller compiles no more.
      await Promise.allSettled([...open]);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onError);
      if (failed) await worker.terminate();
      // Not awaited: the thread tears its heap down on its own core while the caller goes on.
      else if (!keep) void worker.terminate();
      else park(key, worker);
    },
  };
}
