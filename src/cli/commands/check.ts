/**
 * `rulec check`: the CI stage of a pull request.
 *
 * 1. Resolve head (default HEAD) and base (default: the merge base with the
 *    default branch), and read the approvals contract.
 * 2. List the changed paths that can change the bundle (src/source/
 *    rule-changes.ts). None: print one line and exit 0 — nothing else is
 *    loaded on this path (no compiler, no tokenizer).
 * 3. Compile base and head from git objects, diff them, assess the risk with
 *    the BASE policy's risk classes, and report (text or json). Exit 1 when
 *    the verdict fails: errors in head, error-level conflicts introduced, or
 *    a risky change without the approvals its class needs.
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { REPO_POLICY_PATH } from '../../config/policy-path.js';
import { NO_REDACTIONS } from '../../diagnostics/redact.js';
import { NO_APPROVALS, parseApprovals } from '../../diff/approvals.js';
import { skippedReport } from '../../diff/check-report.js';
import type { ApprovalsInput, CheckRef } from '../../diff/check-model.js';
import type { StageResult } from '../../types.js';
import { checkReportOf } from '../../report/reporters/from-diff.js';
import { baseRef, headRef } from '../../source/refs.js';
import { ruleChanges } from '../../source/rule-changes.js';
import { diag } from '../../diagnostics/diagnostic.js';
import { toPosix } from '../../util/posix-path.js';
import { UsageError } from '../../util/errors.js';
import { parseCommandArgs, str } from '../args.js';
import { EXIT, type Io } from '../io.js';
import { emitReport, REPORT_HELP, REPORT_OPTIONS, reportRequest, toolInfo } from '../report-output.js';

export const CHECK_HELP = `Usage: rulec check [--base REF] [--head REF] [options]

For a pull request: find the rule files changed between base and head
(instruction files, the files they import, the policy). With none, print one
line and exit 0. Otherwise compile base and head from git objects (the work
tree and the index are not touched), validate head, diff base → head,
classify the risk of each change with the base commit's risk classes, and
fail on errors, on new error-level conflicts, or on a risky change without
the approvals its class requires.

Options:
  --base REF        the commit to compare with (default: the merge base of head with
                    origin/HEAD, else main, master, origin/main, origin/master)
  --head REF        the commit to check (default: HEAD)
  --repo DIR        the repository (default: current directory)
  --managed DIR     managed-layer directory (overrides the policy's managed.dir)
  --policy PATH     the policy file inside the repository, read from each commit
                    (default: .rulec/policy.yaml); a file outside the repository
                    applies to both commits as it is on disk
  --approvals FILE  the approvals contract: {"head": SHA, "approvers": [...], "teams": {...}}
                    (default: the RULEC_APPROVALS environment variable, a file path or the JSON itself)
${REPORT_HELP}
                    (json: schemas/check.schema.json)
  -h, --help        show this help

Exit codes: 0 pass, 1 fail, 2 usage or internal failure.`;

export async function checkCommand(argv: string[], io: Io): Promise<number> {
  const { values } = parseCommandArgs(argv, {
    base: { type: 'string' }, head: { type: 'string' }, repo: { type: 'string' }, managed: { type: 'string' }, policy: { type: 'string' },
    approvals: { type: 'string' }, ...REPORT_OPTIONS,
  }, 0);
  if (values.help) return io.out(`${CHECK_HELP}\n`), EXIT.clean;
  const request = reportRequest(values, io);
  const repoDir = resolve(io.cwd, str(values, 'repo') ?? '.');
  const policyArg = str(values, 'policy');
  const policyFile = policyArg === undefined ? undefined : resolve(io.cwd, policyArg);
  const policyRel = policyFile === undefined ? REPO_POLICY_PATH : insideRepo(repoDir, policyFile);
  const heading = headRef(repoDir, str(values, 'head'));
  const [head, base] = await Promise.all([heading, baseRef(repoDir, str(values, 'base'), heading)]);
  const approvals = readApprovals(str(values, 'approvals'), io, head.commit);
  const changes = await ruleChanges(repoDir, base.commit, head.commit, { ...(policyRel !== null ? { policyFile: policyRel } : {}) });
  for (const note of changes.notes) io.err(`rulec: note: ${note}\n`);
  if (changes.relevant.length === 0) {
    await emitReport(io, request, checkReportOf(skippedReport(base, head, approvals.value), { lines: {}, policy_file: policyRel }, toolInfo()), NO_REDACTIONS);
    return EXIT.clean;
  }
  const managed = str(values, 'managed');
  const run = await import('./check-run.js');
  const { report, lines, redactions } = await run.runCheck({ repoDir, base, head, changed: changes.relevant, approvals,
    ...(managed ? { managedDir: resolve(io.cwd, managed) } : {}), ...(policyFile ? { policyFile } : {}), policyRel });
  await emitReport(io, request, checkReportOf(report, { lines, policy_file: policyRel }, toolInfo()), redactions);
  return report.verdict === 'pass' ? EXIT.clean : EXIT.errors;
}

/** A policy file's path inside the repository (posix), or null when it lies outside it. */
function insideRepo(repoDir: string, file: string): string | null {
  const rel = relative(repoDir, file);
  if (rel === '') throw new UsageError(`--policy names the repository itself: ${file}`);
  return rel.startsWith('..') || isAbsolute(rel) ? null : toPosix(rel);
}


/** The approvals contract from --approvals FILE, else RULEC_APPROVALS (a file path, or the JSON itself). */
function readApprovals(file: string | undefined, io: Io, head: string): StageResult<ApprovalsInput> {
  const env = process.env.RULEC_APPROVALS;
  if (file === undefined && (env === undefined || env.trim() === '')) return { value: NO_APPROVALS, diagnostics: [] };
  if (file === undefined && env?.trim().startsWith('{')) return parseApprovals(env, 'env:RULEC_APPROVALS', head);
  const given = file ?? env ?? '';
  const path = resolve(io.cwd, given);
  const from = file !== undefined ? given : `env:RULEC_APPROVALS (${given})`;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    return { value: { ...NO_APPROVALS, from }, diagnostics: [diag('RC8004', { file: '', message: `approvals from ${from} are not used: cannot read the file (${(e as NodeJS.ErrnoException).code ?? 'error'})` })] };
  }
  return parseApprovals(text, from, head);
}

export type { CheckRef };
