/**
 * rulec CLI: pick the command, run it, map the outcome to an exit code.
 *
 * `main(argv, io)` has no side effects on import, so tests run it in-process
 * against a fake Io; the process entry is bin.ts. Each command module is
 * imported only when that command runs: `rulec --help` and `rulec explain-code`
 * never load the pipeline, its dependencies or a tokenizer.
 */
import { compilerVersion } from '../config/package-files.js';
import { PolicyError } from '../config/policy-error.js';
import { InternalError, UsageError } from '../util/errors.js';
import { EXIT, type Io } from './io.js';

type Command = (argv: string[], io: Io) => Promise<number>;

const COMMANDS: Record<string, { load: () => Promise<Command>; summary: string }> = {
  build: { load: async () => (await import('./commands/build.js')).buildCommand, summary: 'compile the repository into a bundle (<repo>/bundles/<id>/)' },
  lint: { load: async () => (await import('./commands/lint.js')).lintCommand, summary: 'check instruction files and report every problem; writes nothing' },
  explain: { load: async () => (await import('./commands/explain.js')).explainCommand, summary: 'show what loads at a path, in which order, and why' },
  'explain-code': { load: async () => (await import('./commands/explain-code.js')).explainCodeCommand, summary: 'explain a diagnostic code (e.g. RC2102)' },
  registry: { load: async () => (await import('./commands/registry/index.js')).registryCommand, summary: 'publish, canary, promote, revoke bundles; admit runs (rulec registry --help)' },
  keys: { load: async () => (await import('./commands/keys.js')).keysCommand, summary: 'generate ed25519 signing keys and keep the trust file' },
  diff: { load: async () => (await import('./commands/diff.js')).diffCommand, summary: 'compare two bundles, git refs or the work tree: rules, paths, conflicts, tokens, cache' },
  check: { load: async () => (await import('./commands/check.js')).checkCommand, summary: 'CI for a pull request: diff base → head, classify risk, gate on errors and approvals' },
};

const HELP = `Usage: rulec <command> [options]

rulec compiles the instruction files that steer AI coding agents (AGENTS.md,
CLAUDE.md, .claude/rules, .cursor/rules, .github/instructions, GEMINI.md,
managed policy) into a verified, content-addressed bundle.

Commands:
${Object.entries(COMMANDS).map(([n, c]) => `  ${n.padEnd(13)} ${c.summary}`).join('\n')}

Run rulec <command> --help for a command's options.
Exit codes: 0 clean, 1 errors found, 2 usage, configuration or internal failure.`;

export async function main(argv: string[], io: Io): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') return io.out(`${HELP}\n`), EXIT.clean;
  if (name === '--version' || name === '-v') return io.out(`${compilerVersion()}\n`), EXIT.clean;
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    io.err(`rulec: unknown command "${name}"\n\n${HELP}\n`);
    return EXIT.failure;
  }
  try {
    return await (await command.load())(rest, io);
  } catch (e) {
    if (e instanceof PolicyError) {
      const { formatDiagnostics } = await import('../report/text.js');
      io.err(`${formatDiagnostics(e.diagnostics, () => undefined)}\nrulec ${name}: ${e.message}\n`);
      return EXIT.failure;
    }
    if (e instanceof UsageError) {
      io.err(`rulec ${name}: ${e.message}\n`);
      return EXIT.failure;
    }
    const detail = e instanceof InternalError || e instanceof Error ? (e.stack ?? e.message) : String(e);
    io.err(`rulec ${name}: internal error (RC9001) — this is a bug in rulec; please report it with the command line.\n${process.env.RULEC_DEBUG ? detail : (e as Error).message ?? detail}\n`);
    return EXIT.failure;
  }
}
