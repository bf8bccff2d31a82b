/**
 * The background worker: it owns a tokenizer, built as soon as the worker
 * starts (while the main thread discovers, parses and resolves), and answers
 * two kinds of job: token counts for a batch of texts, and the agent-profile
 * evaluation of a build (which counts tokens too, so it belongs here).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { countTokens } from '../validate/token-count.js';
import { evaluateProfileJob, type ProfileJob } from '../profiles/build-view.js';

export type Job = { kind: 'count'; texts: string[] } | { kind: 'profiles'; job: ProfileJob };

const encoding = (workerData as { encoding: string }).encoding;
countTokens(encoding, 'warm up');
if (encoding !== 'o200k_base') countTokens('o200k_base', 'warm up');
parentPort?.on('message', (msg: Job) => {
  parentPort?.postMessage(msg.kind === 'count' ? msg.texts.map((t) => countTokens(encoding, t)) : evaluateProfileJob(msg.job));
});
