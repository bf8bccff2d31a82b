/** `rulec build`: compile a repository and write its bundle. */
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { UsageError } from '../../util/errors.js';
import { hasErrors } from '../../diagnostics/diagnostic.js';
import { buildReportOf } from '../../report/reporters/from-compile.js';
import { parseCommandArgs, str } from '../args.js';
import { EXIT, type Io } from '../io.js';
import { progressFor } from '../progress.js';
import { replayReport, withNotes } from '../../cache/build-memo.js';
import type { CachedBuild } from '../../cache/cached-compile.js';
import { NO_REDACTIONS } from '../../diagnostics/redact.js';
import type { BuildOutcome } from '../../report/reporters/from-compile.js';
import type { BuildReport } from '../../report/reporters/types.js';
import { emitReport, policyFileOf, REPORT_HELP, REPORT_OPTIONS, reportRequest, toolInfo } from '../report-output.js';
import { COMPILE_INPUT_HELP, COMPILE_OPTIONS, cacheWanted, compileOptionsFrom, displayPath } from './shared.js';
import { SEVERITY_HELP, SEVERITY_OPTION, severityOption } from './severity-option.js';

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

A build keeps a cache in <repo>/.rulec/cache/: token counts by text digest, and
a record of the last build, so that a rebuild whose inputs did not change prints
its report without compiling. It never changes a bundle or a report, is ignored
when git tracks it, and is always safe to delete. --no-cache (or RULEC_NO_CACHE=1)
neither reads nor writes it.

Exit codes: 0 built, 1 errors found (nothing written) or stale with --check, 2 usage or internal failure.`;

export async function buildCommand(argv: string[], io: Io): Promise<number> {
  const { values } = parseCommandArgs(argv, { ...COMPILE_OPTIONS, ...SEVERITY_OPTION, ...REPORT_OPTIONS, out: { type: 'string' }, revision: { type: 'string' }, check: { type: 'boolean' },
    quiet: { type: 'boolean', short: 'q' } }, 0);
  if (values.help) return io.out(`${BUILD_HELP}\n`), EXIT.clean;
  const request = reportRequest(values, io);
  const options = { ...compileOptionsFrom(values, io), ...severityOption(values) };
  const revision = str(values, 'revision');
  const outDir = resolve(io.cwd, str(values, 'out') ?? join(options.repoDir, 'bundles'));
  if (existsSync(outDir) && !statSync(outDir).isDirectory()) throw new UsageError(`--out must name a directory; ${outDir} is a file`);
  const [{ compileOrReplay, keepMemo }, { cacheNotes, openBuildCache }, { bundleUnchanged }, { reuseBundle, writeBundle }, { bundleMatches }] = await Promise.all([
    import('../../cache/cached-compile.js'), import('../../cache/build-cache.js'), import('../../cache/bundle-stamp.js'), import('../../emit/write-bundle.js'),
    import('./check-bundle.js')]);
  // --check writes nothing, the cache included: it reads the counts and a record only.
  const cache = await openBuildCache(options.repoDir, cacheWanted(values), values.check !== true);
  const progress = progressFor(io, { command: 'build', quiet: values.quiet === true, json: request.format === 'json' });
  const where = { repo: displayPath(io, options.repoDir), policy_file: policyFileOf(options.repoDir, options.policyFile) };
  const checkOf = (stale: boolean): BuildOutcome['check'] => (values.check ? { out: displayPath(io, outDir), stale } : null);
  let built: CachedBuild;
  let written: string | null = null;
  let stale = false;
  try {
    // A replay is taken only when the bundle it names is in <out> intact (with --check: whatever <out> holds, it says so).
    built = await compileOrReplay({ ...options, outDir, ...(revision ? { revision } : {}), onStage: progress.stage }, cache, (record) => {
      if (values.check) return (stale = !bundleMatches(outDir, record.bundle_id), true);
      return (written = reuseBundle(outDir, record.bundle_id, (dir) => bundleUnchanged(dir, record.digest, record.stamp))) !== null;
    });
    if (built.kind === 'compiled') {
      const { result } = built;
      if (!values.check && !hasErrors(result.diagnostics)) progress.stage('write', result.resolution.variants.length);
      if (values.check) stale = !hasErrors(result.diagnostics) && !bundleMatches(outDir, result.manifest.bundle_id);
      else if (!hasErrors(result.diagnostics)) written = writeBundle(outDir, result);
    }
  } finally {
    progress.end();
  }
  const run = { ...where, written: written && displayPath(io, written), check: checkOf(stale) };
  let report: BuildReport;
  if (built.kind === 'replay') {
    report = replayReport(built.record, run, cacheNotes(cache, built.policy));
  } else {
    report = buildReportOf(built.result, run, toolInfo());
    if (written !== null) keepMemo(cache, built.memo, built.result, report, written);
    report = { ...report, diagnostics: withNotes(report.diagnostics, cacheNotes(cache, built.result.policy)) };
  }
  await emitReport(io, request, report, built.kind === 'replay' ? NO_REDACTIONS : built.result.redactions);
  // The build's own findings decide the exit, never a cache note (even one a policy raised to error).
  const failed = built.kind === 'replay' ? hasErrors(built.record.report.diagnostics) : hasErrors(built.result.diagnostics);
  return failed || stale ? EXIT.errors : EXIT.clean;
}
