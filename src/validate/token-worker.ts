/**
 * Worker thread that owns a tokenizer: it builds the rank table as soon as it
 * starts (while the main thread discovers, parses and resolves) and then
 * answers batches of texts with their token counts.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { countTokens } from './token-count.js';

const encoding = (workerData as { encoding: string }).encoding;
countTokens(encoding, 'warm up');
parentPort?.on('message', (texts: string[]) => {
  parentPort?.postMessage(texts.map((t) => countTokens(encoding, t)));
});
