/**
 * Token counting on the second core. Building tiktoken's rank table costs
 * close to a second of CPU; a worker builds it in parallel with the rest of
 * the pipeline. When the compiled worker is not available (running from
 * TypeScript sources) or fails, counting happens in-process: same numbers.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { countTokens } from './token-count.js';

export interface BackgroundCounter {
  count(texts: string[]): Promise<number[]>;
  close(): Promise<void>;
}

export function startTokenCounter(encoding: string): BackgroundCounter {
  const script = new URL('./token-worker.js', import.meta.url);
  const inProcess: BackgroundCounter = {
    count: async (texts) => texts.map((t) => countTokens(encoding, t)),
    close: async () => undefined,
  };
  if (script.protocol !== 'file:' || !existsSync(fileURLToPath(script))) return inProcess;
  let worker: Worker;
  try {
    worker = new Worker(script, { workerData: { encoding } });
  } catch {
    return inProcess;
  }
  worker.unref();
  let failed: Error | null = null;
  worker.on('error', (e) => { failed = e; });
  return {
    count: (texts) => new Promise<number[]>((resolve) => {
      if (failed) return resolve(inProcess.count(texts));
      const onMessage = (counts: number[]): void => { worker.off('error', onError); resolve(counts); };
      const onError = (): void => { worker.off('message', onMessage); resolve(inProcess.count(texts)); };
      worker.once('message', onMessage);
      worker.once('error', onError);
      worker.postMessage(texts);
    }),
    close: async () => { await worker.terminate(); },
  };
}
