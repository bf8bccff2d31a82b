/**
 * Shell commands for test setup, synchronously, through one shell per test
 * worker: what src/source/shell-host.ts does for rulec's own git queries, for
 * the `git init`, `add` and `commit` of the tests' repositories. A test worker
 * holds hundreds of megabytes, and execFileSync forks all of it: 25 ms of the
 * worker's CPU per call here (a 200 MB probe that keeps allocating: 76–82 ms
 * an iteration with one execFileSync of git, 52–55 through this shell).
 *
 * The shell reads its commands from one FIFO and answers each with its exit
 * status on another. The worker holds both open for reading and writing (so
 * neither open blocks), the shell a read end and a write end of its own: it
 * reads an end of file, removes its directory and ends when the worker does.
 * Output goes to files. The worker waits for the status with a non-blocking
 * read between short sleeps, so a shell that died fails the call instead of
 * hanging it, and the next call spawns. Where there is no /proc (not Linux)
 * or no mkfifo, each call is an execFileSync of the shell, as before.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, constants, existsSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { definedEnv } from '../../src/source/git-env.js';
import { cleanupScript, envScript, quote } from '../../src/source/shell-host.js';

interface Host {
  child: ChildProcess;
  dir: string;
  commands: number;
  answers: number;
  env0: Record<string, string>;
}

let host: Host | null | undefined;
const WAIT_MS = 120_000;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** Run `script` with `sh -c` semantics in `cwd` with exactly `env`; its stdout, or an Error with its stderr when it fails. */
export function shSync(script: string, cwd: string, env: Record<string, string>): string {
  if (host === undefined) host = start();
  // A shell that died (killed: its trap did not run) is let go with its directory.
  if (host !== null && !alive(host)) host = discard(host);
  const h = host;
  const setEnv = h === null ? null : envScript(h.env0, env);
  if (h === null || setEnv === null) {
    return execFileSync('/bin/sh', ['-c', script], { cwd, env, encoding: 'utf8' });
  }
  const out = join(h.dir, 'out');
  const err = join(h.dir, 'err');
  writeSync(h.commands, `(cd -P -- ${quote(resolve(cwd))} || exit 126\n${setEnv}${script}\n) </dev/null >${quote(out)} 2>${quote(err)}; echo "$?"\n`);
  const code = Number(readLine(h));
  const stdout = readFileSync(out, 'utf8');
  if (code !== 0) throw new Error(`shell command failed (${code}): ${script}\n${readFileSync(err, 'utf8')}`);
  return stdout;
}

/** The shell's pid, when one runs (what a test looks at). */
export function syncShellPid(): number | undefined {
  return host?.child.pid;
}

function start(): Host | null {
  if (!existsSync('/proc/self/stat')) return null;
  const dir = mkdtempSync(join(tmpdir(), 'rulec-test-sh-'));
  try {
    execFileSync('mkfifo', [join(dir, 'commands'), join(dir, 'answers')]);
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return null;
  }
  const commands = openSync(join(dir, 'commands'), constants.O_RDWR);
  const answers = openSync(join(dir, 'answers'), constants.O_RDWR | constants.O_NONBLOCK);
  // The shell gets a read-only end and a write-only end of its own: when this process ends, its
  // commands FIFO has no writer left, and the shell reads an end of file and ends too.
  const shellIn = openSync(join(dir, 'commands'), constants.O_RDONLY);
  const shellOut = openSync(join(dir, 'answers'), constants.O_WRONLY);
  const env0 = definedEnv();
  let child: ChildProcess;
  try {
    child = spawn('/bin/sh', ['-s'], { cwd: '/', env: env0, stdio: [shellIn, shellOut, 'ignore'] });
  } finally {
    closeSync(shellIn);
    closeSync(shellOut);
  }
  child.unref();
  writeSync(commands, cleanupScript(dir));
  const h: Host = { child, dir, commands, answers, env0 };
  process.once('exit', () => {
    if (host === h) discard(h);
  });
  return h;
}

/** Close the worker's ends of the FIFOs and remove the directory; null, for `host`. */
function discard(h: Host): null {
  for (const fd of [h.commands, h.answers]) {
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
  }
  h.child.kill('SIGKILL');
  rmSync(h.dir, { recursive: true, force: true });
  return null;
}

/** The shell is still there (not ended, not a zombie nobody has reaped yet). */
function alive(h: Host): boolean {
  if (h.child.pid === undefined || h.child.exitCode !== null || h.child.signalCode !== null) return false;
  try {
    return !/^\d+ \(.*\) [ZX]/s.test(readFileSync(`/proc/${h.child.pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** One line from the shell: its status for the command just sent. */
function readLine(h: Host): string {
  const buf = Buffer.alloc(64);
  let line = '';
  const deadline = performance.now() + WAIT_MS;
  for (let idle = 0; !line.endsWith('\n'); ) {
    let n = 0;
    try {
      n = readSync(h.answers, buf, 0, buf.length, null);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
    }
    if (n > 0) {
      line += buf.toString('latin1', 0, n);
      continue;
    }
    if (performance.now() > deadline || (++idle % 64 === 0 && !alive(h))) {
      host = discard(h);
      throw new Error('the test shell did not answer (it died, or a command hangs)');
    }
    Atomics.wait(sleeper, 0, 0, idle < 200 ? 0.2 : 2);
  }
  return line.trim();
}
