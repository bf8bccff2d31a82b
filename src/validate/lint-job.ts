/**
 * Lint as a job for the background worker (worker/background.ts): the files
 * in, the findings, what lint remembers of them and every detected secret's
 * site out. The worker parses the files again (parse is a pure function of a
 * file, so it gets the documents the main thread got) rather than receiving
 * them: its core has time while the main thread scans for conflicts, and a
 * build's lint (a second of the bench's cold build) leaves the main thread.
 */
import type { SourceFile } from '../types.js';
import type { Policy } from '../config/policy.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { SecretSite } from '../diagnostics/redact.js';
import { parseDoc } from '../parse/parse-doc.js';
import { lintWithMemo, type LintMemo } from './lint-rules.js';
import { secretSites } from './lint/secrets.js';
import { severityDecision } from './severity.js';

export interface LintJob {
  /** The files to lint, in the order their documents were parsed (the secret sites come in that order). */
  files: SourceFile[];
  /** The build's policy: its severities decide which rules run. */
  policy: Policy;
  /** What an earlier build's lint remembered (lint-rules.ts). */
  known: LintMemo;
}

export interface LintAnswer {
  /** The findings, sorted, at the policy's severities. */
  diagnostics: Diagnostic[];
  /** What to remember of this lint (lint-rules.ts). */
  memo: LintMemo;
  /** Every detected secret in the files, whatever the secret rules' severities: the build's redactions. */
  secrets: SecretSite[];
}

export function runLintJob(job: LintJob): LintAnswer {
  const inputs = job.files.map((file) => ({ file, doc: parseDoc(file).value }));
  const linted = lintWithMemo(inputs, severityDecision(job.policy), job.known);
  return { diagnostics: linted.diagnostics, memo: linted.memo, secrets: secretSites(inputs.map((i) => i.doc)) };
}
