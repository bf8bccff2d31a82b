/**
 * The background worker threads themselves (pool.ts runs jobs on them): which
 * worker a policy needs, the idle ones kept for the next compile, and starting
 * one ahead of the compiler. Light on purpose — it loads neither the tokenizer
 * nor a profile — so a build can start its worker before it imports the
 * pipeline (0.3 s of module loading on the main thread while the worker
 * builds its own and reads the rank table).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Policy } from '../config/policy.js';
import { DEFAULT_ENABLED_PROFILES } from '../profiles/defaults.js';
import type { BackgroundData } from './background.js';

/** The worker a build under `policy` uses: its tokenizer, and whether agent profiles run (their encoding is then warmed too). */
export function backgroundOf(policy: Policy): BackgroundData {
  return { encoding: policy.tokenizer, profiles: (policy.profiles?.enabled ?? DEFAULT_ENABLED_PROFILES).length > 0 };
}

const SCRIPT = new URL('./background.js', import.meta.url);

/** Whether the compiled worker script is there (not when running from TypeScript sources). */
export function workerAvailable(): boolean {
  return SCRIPT.protocol === 'file:' && existsSync(fileURLToPath(SCRIPT));
}

/** A new worker for `data`, unreferenced (it never holds the process); throws when one cannot start. */
export function newWorker(data: BackgroundData): Worker {
  const worker = new Worker(SCRIPT, { workerData: data });
  worker.unref();
  return worker;
}

/**
 * Workers not serving a compile, by encoding and profile flag: one whose compile has closed it
 * (`rulec check` compiles base, then head; a library caller compiles many) or one started ahead.
 * The next compile takes one with its rank table read instead of starting another.
 */
const idle = new Map<string, Worker[]>();

export function keyOf(data: BackgroundData): string {
  return `${data.encoding}\0${data.profiles}`;
}

/** Park `worker` in the idle pool until a compile takes it; one that errors or exits meanwhile leaves the pool. */
export function park(key: string, worker: Worker): void {
  const leave = (): void => {
    const list = idle.get(key) ?? [];
    idle.set(key, list.filter((w) => w !== worker));
    void worker.terminate();
  };
  worker.once('error', leave);
  worker.once('exit', leave);
  idle.set(key, [...(idle.get(key) ?? []), worker]);
}

/** How many idle workers there are for `data` (what a test looks at). */
export function idleWorkers(data: BackgroundData): number {
  return idle.get(keyOf(data))?.length ?? 0;
}

/** An idle worker for `key`, no longer listened to as idle, or undefined. */
export function take(key: string): Worker | undefined {
  const worker = idle.get(key)?.pop();
  worker?.removeAllListeners('error').removeAllListeners('exit');
  return worker;
}

/**
 * Start the worker a compile under `policy` will take, unless one is idle already: called before
 * the pipeline is imported, so the two load side by side. Nothing happens when no worker can start
 * (the compile then counts in-process, as it would have).
 */
export function prestartBackground(policy: Policy): void {
  const data = backgroundOf(policy);
  const key = keyOf(data);
  if (!workerAvailable() || (idle.get(key)?.length ?? 0) > 0) return;
  try {
    park(key, newWorker(data));
  } catch {
    // The compile starts its own, or runs in-process.
  }
}
