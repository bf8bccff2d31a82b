/** `rulec diff OLD [NEW]`: what a change does to every path's context, its rules, conflicts, tokens and prompt cache. */
import { resolve } from 'node:path';
import { UsageError } from '../../util/errors.js';
import { redactionsOf, type Redactions } from '../../diagnostics/redact.js';
import { SIDE_SYNTAX } from '../../source/sides.js';
import { parseCommandArgs, str } from '../args.js';
import { EXIT, type Io } from '../io.js';
import { emitReport, REPORT_HELP, REPORT_OPTIONS, reportRequest, toolInfo } from '../report-output.js';

export const DIFF_HELP = `Usage: rulec diff OLD [NEW] [options]

Compare two bundles semantically: rules added, removed, changed or moved (by
rule id), per path group the sources that joined or left and the topic
winners that changed, conflict events introduced and resolved, tokens and
bytes per variant and per agent, files an agent's budget now cuts, how much
of each context a prompt cache still hits, the paths affected, and the
proposed semver bump.

OLD and NEW (default: worktree:) are each one of
  bundle:PATH    a bundle directory, or a bundles directory with a current pointer
  git:REF        a commit of the repository, compiled from git objects
                 (the work tree and the index are not touched)
  worktree:      the repository's work tree, compiled
Without a prefix, an existing directory holding manifest.json or current is a
bundle and a name git resolves to a commit is a git ref; a name that is both
must be written with its prefix.

Options:
  --repo DIR        repository for git: and worktree: sides (default: current directory)
  --managed DIR     managed-layer directory (overrides the policy's managed.dir)
  --policy FILE     policy file for compiled sides (default: each side's own .rulec/policy.yaml)
  --include-local   include personal, unreviewed files in the worktree: side
${REPORT_HELP}
                    (json: schemas/diff.schema.json)
  -h, --help        show this help

Exit codes: 0 compared, 2 usage error, an unusable bundle, or internal failure.`;

export async function diffCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, {
    repo: { type: 'string' }, managed: { type: 'string' }, policy: { type: 'string' }, 'include-local': { type: 'boolean' }, ...REPORT_OPTIONS,
  }, 2);
  if (values.help) return io.out(`${DIFF_HELP}\n`), EXIT.clean;
  const request = reportRequest(values, io);
  const [oldArg, newArg = 'worktree:'] = positionals;
  if (oldArg === undefined) throw new UsageError(`diff needs OLD (${SIDE_SYNTAX}); see rulec diff --help`);
  const repoDir = resolve(io.cwd, str(values, 'repo') ?? '.');
  const managed = str(values, 'managed');
  const policy = str(values, 'policy');
  const { loadSide } = await import('../../source/load-side.js');
  const compileOptions = {
    repoDir, includeLocal: values['include-local'] === true,
    ...(managed ? { managedDir: resolve(io.cwd, managed) } : {}), ...(policy ? { policyFile: resolve(io.cwd, policy) } : {}),
  };
  const { resolveSide } = await import('../../source/sides.js');
  const oldSide = await loadSide(await resolveSide(oldArg, repoDir, io.cwd), compileOptions);
  const newSide = await loadSide(await resolveSide(newArg, repoDir, io.cwd), compileOptions);
  const { diffWithRedactions } = await import('../../diff/diff-bundles.js');
  const { BundleError } = await import('../../bundle/bundle-error.js');
  let done;
  try {
    done = diffWithRedactions(oldSide.view, newSide.view, { layerOrder: newSide.layerOrder ?? oldSide.layerOrder ?? undefined });
  } catch (e) {
    if (e instanceof BundleError) throw new UsageError(`cannot use a bundle: ${e.message} (${e.code})`);
    throw e;
  }
  const { diffReportOf } = await import('../../report/reporters/from-diff.js');
  await emitReport(io, request, diffReportOf(done.diff, toolInfo()), mergeRedactions([done.redactions, oldSide.result?.redactions, newSide.result?.redactions]));
  return EXIT.clean;
}

/** One redaction set from several (the diff's own and each compiled side's). */
export function mergeRedactions(sets: readonly (Redactions | undefined)[]): Redactions {
  return redactionsOf(sets.flatMap((r) => r?.sites ?? []));
}
