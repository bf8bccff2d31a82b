/**
 * The background worker: it owns a tokenizer, built as soon as the worker
 * starts (while the main thread discovers, parses and resolves), and answers
 * two kinds of job: token counts for a batch of texts, and the agent-profile
 * evaluation of a build (which counts tokens too, so it belongs here).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { countTokens } from '../validate/token-count.js';
import { evaluateProfileJob, type ProfileJob } from '../profiles/build-view.js';
import { PROFILE_ENCODING } from '../profiles/common.js';

/** What the pool passes the worker at start: the policy's tokenizer, and whether profiles will be evaluated. */
export interface BackgroundData {
  encoding: string;
  profiles: boolean;
}

export type Job = { kind: 'count'; texts: string[] } | { kind: 'profiles'; job: ProfileJob };

const { encoding, profiles } = workerData as BackgroundData;
countTokens(encoding, 'warm up');
// Agent profiles count with o200k_base whatever the policy's tokenizer: warm it only when they run.
if (profiles && encoding !== PROFILE_ENCODING) countTokens(PROFILE_ENCODING, 'warm up');
parentPort?.on('message', (msg: Job) => {
  parentPort?.postMessage(msg.kind === 'count' ? msg.texts.map((t) => countTokens(encoding, t)) : evaluateProfileJob(msg.job));
});
