/**
 * The background worker: it owns a tokenizer, built as soon as the worker
 * starts (while the main thread discovers, parses and resolves), and answers
 * three kinds of job: token counts for a batch of texts, the agent-profile
 * evaluation of a build (which counts tokens too, so it belongs here), and
 * the build's lint (validate/lint-job.ts). A
 * build with a cache also starts and takes a ledger of the counts it used
 * (token-count.ts), seeded with the counts an earlier build kept.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { countTokens, startLedger, takeLedger, type TokenCounts } from '../validate/token-count.js';
import { evaluateProfileJob, type ProfileJob } from '../profiles/build-view.js';
import { PROFILE_ENCODING } from '../profiles/common.js';
import { runLintJob, type LintJob } from '../validate/lint-job.js';

/** What the pool passes the worker at start: the policy's tokenizer, and whether profiles will be evaluated. */
export interface BackgroundData {
  encoding: string;
  profiles: boolean;
}

export type Job = { kind: 'count'; texts: string[] } | { kind: 'profiles'; job: ProfileJob } | { kind: 'lint'; job: LintJob }
  | { kind: 'start-ledger'; known: TokenCounts } | { kind: 'take-ledger' };

function answer(msg: Job): unknown {
  switch (msg.kind) {
    case 'count': return msg.texts.map((t) => countTokens(encoding, t));
    case 'profiles': return evaluateProfileJob(msg.job);
    case 'lint': return runLintJob(msg.job);
    case 'start-ledger': return void startLedger(msg.known);
    case 'take-ledger': return takeLedger();
  }
}

const { encoding, profiles } = workerData as BackgroundData;
countTokens(encoding, 'warm up');
// Agent profiles count with o200k_base whatever the policy's tokenizer: warm it only when they run.
if (profiles && encoding !== PROFILE_ENCODING) countTokens(PROFILE_ENCODING, 'warm up');
parentPort?.on('message', (msg: Job) => {
  parentPort?.postMessage(answer(msg));
});
