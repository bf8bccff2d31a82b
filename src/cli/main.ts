#!/usr/bin/env node
/** rulec CLI entry: pick the command, run it, map the outcome to an exit code. */
import { compilerVersion } from '../config/package-files.js';
import { PolicyError } from '../compile.js';
import { InternalError, UsageError } from '../diagnostics/errors.js';
import { formatDiagnostics } from '../report/text.js';
import { EXIT, processIo, type Io } from './io.js';
import { buildCommand } from './commands/build.js';
import { explainCommand } from './commands/explain.js';
import { explainCodeCommand } from './commands/explain-code.js';
import { lintCommand } from './commands/lint.js';

const COMMANDS: Record<string, { run: (argv: string[], io: Io) => Promise<number>; summary: string }> = {
  build: { run: buildCommand, summary: 'compile the repository into a bundle (<repo>/bundles/<id>/)' },
  lint: { run: lintCommand, summary: 'check instruction files and report every problem; writes nothing' },
  explain: { run: explainCommand, summary: 'show what loads at a path, in which order, and why' },
  'explain-code': { run: explainCodeCommand, summary: 'explain a diagnostic code (e.g. RC2102)' },
  registry: { run: async (argv, io) => (await import('./commands/registry/index.js')).registryCommand(argv, io), summary: 'publish, canary, promote, revoke bundles; admit runs (rulec registry --help)' },
  keys: { run: async (argv, io) => (await import('./commands/keys.js')).keysCommand(argv, io), summary: 'generate ed25519 signing keys and keep the trust file' },
  diff: { run: async (argv, io) => (await import('./commands/diff.js')).diffCommand(argv, io), summary: 'compare two bundles, git refs or the work tree: rules, paths, conflicts, tokens, cache' },
  check: { run: async (argv, io) => (await import('./commands/check.js')).checkCommand(argv, io), summary: 'CI for a pull request: diff base → head, classify risk, gate on errors and approvals' },
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
  const command = COMMANDS[name];
  if (!command) {
    io.err(`rulec: unknown command "${name}"\n\n${HELP}\n`);
    return EXIT.failure;
  }
  try {
    return await command.run(rest, io);
  } catch (e) {
    if (e instanceof PolicyError) {
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

// A reader that stops early (`rulec explain … | head`) is not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
}

main(process.argv.slice(2), processIo).then(
  (code) => { process.exitCode = code; },
  (e: unknown) => { process.stderr.write(`rulec: internal error (RC9001): ${(e as Error).message}\n`); process.exitCode = EXIT.failure; },
);
