/** Options and output pieces shared by the commands that compile a repository. */
import { relative, resolve } from 'node:path';
import type { CompileOptions } from '../../compile.js';
import { str, type OptionSpec, type Parsed } from '../args.js';
import type { Io } from '../io.js';

export const COMPILE_OPTIONS: OptionSpec = {
  repo: { type: 'string' },
  managed: { type: 'string' },
  policy: { type: 'string' },
  'include-local': { type: 'boolean' },
  'no-cache': { type: 'boolean' },
  format: { type: 'string' },
};

/** The compile options without --format: build and lint add the report formats (src/cli/report-output.ts). */
export const COMPILE_INPUT_HELP = `  --repo DIR        repository to compile (default: current directory)
  --managed DIR     managed-layer directory (overrides the policy's managed.dir)
  --policy FILE     policy file (default: .rulec/policy.yaml in the repo, if present)
  --include-local   include personal, unreviewed files (CLAUDE.local.md, ignored AGENTS.override.md)
  --no-cache        neither read nor write the build cache (.rulec/cache/)`;

export const COMPILE_HELP = `${COMPILE_INPUT_HELP}
  --format FMT      text (default) or json`;

export function compileOptionsFrom(values: Parsed['values'], io: Io): CompileOptions & { repoDir: string } {
  const managed = str(values, 'managed');
  const policy = str(values, 'policy');
  return {
    repoDir: resolve(io.cwd, str(values, 'repo') ?? '.'),
    ...(managed ? { managedDir: resolve(io.cwd, managed) } : {}),
    ...(policy ? { policyFile: resolve(io.cwd, policy) } : {}),
    includeLocal: values['include-local'] === true,
  };
}

/**
 * False with --no-cache, or RULEC_NO_CACHE=1 in the environment (a CI job, a
 * test suite that builds shared read-only trees): the command neither reads
 * nor writes `.rulec/cache/`.
 */
export function cacheWanted(values: Parsed['values']): boolean {
  return values['no-cache'] !== true && process.env.RULEC_NO_CACHE !== '1';
}

export function displayPath(io: Io, abs: string): string {
  const rel = relative(io.cwd, abs);
  return rel === '' ? '.' : rel.startsWith('..') ? abs : rel;
}
