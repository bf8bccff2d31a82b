/** `rulec build`: compile a repository and write its bundle. */
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { UsageError } from '../../util/errors.js';
import { hasErrors } from '../../diagnostics/diagnostic.js';
import { buildReportOf } from '../../report/reporters/from-compile.js';
import { parseCommandArgs, str } from '../args.js';
import { EXIT, type Io } from '../io.js';
import { progressFor } from '../progress.js';
import type { CompileResult } from '../../compile.js';
import { emitReport, policyFileOf, REPORT_HELP, REPORT_OPTIONS, reportRequest, toolInfo } from '../report-output.js';
import { COMPILE_INPUT_HELP, COMPILE_OPTIONS, SEVERITY_HELP, SEVERITY_OPTION, compileOptionsFrom, displayPath } from './shared.js';

export const BUILD_HELP = `Usage: rulec build [options]

Compile the repository's instruction files into a content-addressed bundle
<out>/<bundle_id>/ (manifest.json, context/, attachments/) and point
<out>/current at it. Nothing is written when errors are found.

Options:
${COMPILE_INPUT_HELP}
${SEVERITY_HELP}
${REPORT_HELP}
  --out DIR         where bundles go (default: <repo>/bundles)
  --revision SEMVER revision recorded in the manifest (default: 0.1.0)
  --check           compile and verify that <out> already holds this exact bundle;
                    write nothing (exit 1 when stale: for CI)
  -q, --quiet       no progress line (it shows on a terminal's stderr when a build
                    runs past a second, never with --format json)
  -h, --help        show this help

Reports (--format, --report) are written even when errors are found; a failed
build's JSON still holds the summary, every diagnostic and every conflict event.

Exit codes: 0 built, 1 errors found (nothing written) or stale with --check, 2 usage or internal failure.`;

export async function buildCommand(argv: string[], io: Io): Promise<number> {
  const { values } = parseCommandArgs(argv, { ...COMPILE_OPTIONS, ...SEVERITY_OPTION, ...REPORT_OPTIONS, out: { type: 'string' }, revision: { type: 'string' }, check: { type: 'boolean' },
    quiet: { type: 'boolean', short: 'q' } }, 0);
  if (values.help) return io.out(`${BUILD_HELP}\n`), EXIT.clean;
  const request = reportRequest(values, io);
  const options = compileOptionsFrom(values, io);
  const revision = str(values, 'revision');
  const outDir = resolve(io.cwd, str(values, 'out') ?? join(options.repoDir, 'bundles'));
  if (existsSync(outDir) && !statSync(outDir).isDirectory()) throw new UsageError(`--out must name a directory; ${outDir} is a file`);
  const [{ compile }, { writeBundle }] = await Promise.all([import('../../compile.js'), import('../../emit/write-bundle.js')]);
  const progress = progressFor(io, { command: 'build', quiet: values.quiet === true, json: request.format === 'json' });
  let written: string | null = null;
  let stale = false;
  let result: CompileResult;
  let failed: boolean;
  try {
    result = await compile({ ...options, outDir, ...(revision ? { revision } : {}), onStage: progress.stage });
    failed = hasErrors(result.diagnostics);
    if (!values.check && !failed) progress.stage('write', result.resolution.variants.length);
    if (values.check) stale = !failed && !(await import('./check-bundle.js')).bundleMatches(outDir, result);
    else if (!failed) written = writeBundle(outDir, result);
  } finally {
    progress.end();
  }

  const report = buildReportOf(result, {
    repo: displayPath(io, options.repoDir), policy_file: policyFileOf(options.repoDir, options.policyFile),
    written: written && displayPath(io, written), check: values.check ? { out: displayPath(io, outDir), stale } : null,
  }, toolInfo());
  await emitReport(io, request, report, result.redactions);
  return failed || stale ? EXIT.errors : EXIT.clean;
}
