/**
 * Run the rulec CLI in-process, as `rulec ARGS` would run in `cwd`:
 *
 *   import { runCli } from './helpers/run-cli.js';
 *   const r = await runCli(['build', '--repo', dir, '--format', 'json']);
 *   expect(r).toMatchObject({ code: 1, stderr: '' });
 *
 * It calls main(argv, io) from src/cli/main.ts with an Io that collects what
 * the command writes to stdout and stderr, and returns those texts with the
 * exit code the binary would exit with. That is every observable effect of a
 * command except the process itself, at no spawn cost (a spawned `node
 * dist/cli/bin.js` costs 0.2–0.6 s a case). Spawn the built binary only to
 * test the process: exit status, EPIPE, stream separation (test/cli-process.test.ts).
 * Pass the working directory as `cwd`, never process.chdir(): test files share
 * a worker process (vitest.config.ts), so a chdir would leak into the next file.
 */
import { main } from '../../src/cli/main.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCli(args: readonly string[], cwd: string = process.cwd()): Promise<CliRun> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await main([...args], { out: (t) => void stdout.push(t), err: (t) => void stderr.push(t), cwd });
  return { code, stdout: stdout.join(''), stderr: stderr.join('') };
}
