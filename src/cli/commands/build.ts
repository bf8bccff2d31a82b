/** `rulec build`: compile a repository and write its bundle. */
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { UsageError } from '../../diagnostics/errors.js';
import { compile } from '../../compile.js';
import { writeBundle } from '../../emit/write-bundle.js';
import { hasErrors } from '../../diagnostics/diagnostic.js';
import { formatDiagnostics, num, summaryLine } from '../../report/text.js';
import { formatOption, parseCommandArgs, str } from '../args.js';
import { EXIT, type Io } from '../io.js';
import { COMPILE_HELP, COMPILE_OPTIONS, SEVERITY_HELP, SEVERITY_OPTION, compileOptionsFrom, diagnosticsJson, displayPath, linesOf } from './shared.js';
import { summarise } from './summary.js';

export const BUILD_HELP = `Usage: rulec build [options]

Compile the repository's instruction files into a content-addressed bundle
<out>/<bundle_id>/ (manifest.json, context/, attachments/) and point
<out>/current at it. Nothing is written when errors are found.

Options:
${COMPILE_HELP}
${SEVERITY_HELP}
  --out DIR         where bundles go (default: <repo>/bundles)
  --revision SEMVER revision recorded in the manifest (default: 0.1.0)
  --check           compile and verify that <out> already holds this exact bundle;
                    write nothing (exit 1 when stale: for CI)
  -h, --help        show this help

Exit codes: 0 built, 1 errors found (nothing written) or stale with --check, 2 usage or internal failure.`;

export async function buildCommand(argv: string[], io: Io): Promise<number> {
  const { values } = parseCommandArgs(argv, { ...COMPILE_OPTIONS, ...SEVERITY_OPTION, out: { type: 'string' }, revision: { type: 'string' }, check: { type: 'boolean' } }, 0);
  if (values.help) return io.out(`${BUILD_HELP}\n`), EXIT.clean;
  const format = formatOption(values);
  const options = compileOptionsFrom(values, io);
  const revision = str(values, 'revision');
  const outDir = resolve(io.cwd, str(values, 'out') ?? join(options.repoDir, 'bundles'));
  if (existsSync(outDir) && !statSync(outDir).isDirectory()) throw new UsageError(`--out must name a directory; ${outDir} is a file`);
  const result = await compile({ ...options, outDir, ...(revision ? { revision } : {}) });
  const failed = hasErrors(result.diagnostics);
  let written: string | null = null;
  let stale = false;
  if (values.check) stale = !failed && !(await import('./check-bundle.js')).bundleMatches(outDir, result);
  else if (!failed) written = writeBundle(outDir, result);

  if (format === 'json') {
    io.out(`${JSON.stringify({
      bundle_id: result.manifest.bundle_id, digest: result.digest, written: written && displayPath(io, written),
      stale: values.check ? stale : undefined, summary: summarise(result), diagnostics: diagnosticsJson(result.diagnostics),
    }, null, 2)}\n`);
  } else {
    io.out(formatDiagnostics(result.diagnostics, linesOf(result)));
    if (result.diagnostics.length > 0) io.out('\n');
    const s = summarise(result);
    const lines = [
      `rulec build ${displayPath(io, options.repoDir)}`,
      `  paths        ${num(s.paths)}`,
      `  sources      ${num(s.sources)} (${Object.entries(s.layers).map(([l, n]) => `${n} ${l}`).join(', ') || 'none'})`,
      `  variants     ${num(s.variants)}${s.largest ? ` (largest ${s.largest.id}: ${num(s.largest.tokens)} tokens, ${s.largest.paths} paths)` : ''}`,
      `  attachments  ${num(s.attachments)}`,
      `  tokens       ${num(s.tokens)} unique (${result.policy.tokenizer})`,
      `  bundle       ${result.manifest.bundle_id} ${result.digest}`,
    ];
    if (written) lines.push(`  written      ${displayPath(io, written)}`);
    else if (values.check) lines.push(stale ? `  STALE        ${displayPath(io, outDir)} does not hold this bundle; run rulec build` : `  up to date   ${displayPath(io, join(outDir, result.manifest.bundle_id))}`);
    else lines.push('  not written  errors found');
    io.out(`${lines.join('\n')}\n\n${summaryLine(result.diagnostics)}\n`);
  }
  return failed || stale ? EXIT.errors : EXIT.clean;
}
