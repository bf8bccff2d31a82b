/**
 * One long-lived POSIX shell per process, which starts rulec's git queries.
 *
 * Node starts a process by forking itself: the fork copies the page tables
 * of its whole heap, and every page node writes afterwards faults once more.
 * From a process of 200 MB that keeps allocating (a long-lived library user,
 * a test worker) one spawn cost 28 ms of its CPU on the project's machine;
 * through a shell that stays, the shell's fork and exec cost about 2.5 ms.
 * Node forks once, for the shell; the shell, small, forks every git.
 *
 * A request is a batch of git queries run side by side in one subshell of
 * the host (so the host goes on reading requests): the subshell enters the
 * request's directory, sets its environment (what differs from the host's),
 * starts each query with stdin from /dev/null (or the query's input file),
 * stdout and stderr into files of the host's private temp directory, then
 * waits for each in turn and reports "<request> <query> <status>" on the
 * host's stdout; the host reports "<request> p <pid>" for the subshell,
 * which is reaped (`wait`) once it has reported every query. Output in files
 * needs no framing and may hold any byte; git is given no other descriptor,
 * so nothing it leaves running holds the host's pipes.
 *
 * Every argument, path and value is single-quoted: nothing is expanded or
 * split. An environment the shell cannot express (a name that is not a shell
 * name) is refused (null), and the caller starts git itself.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export interface HostedQuery {
  args: readonly string[];
  /** Written to the query's stdin; none means /dev/null. */
  input?: string | undefined;
}

export interface HostedAnswer {
  code: number;
  stdout: Buffer;
}

export interface HostedRun {
  /** Each query's answer once it and the queries before it have ended. */
  each: Promise<HostedAnswer>[];
  all: Promise<{ results: HostedAnswer[]; stderr: string }>;
}

const SHELL = '/bin/sh';
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

interface Request {
  count: number;
  codes: (number | undefined)[];
  /** Each answer once its output has been read. */
  results: (HostedAnswer | undefined)[];
  answers: Settable<HostedAnswer>[];
  done: Settable<{ results: HostedAnswer[]; stderr: string }>;
  pid?: number;
  reported: number;
  /** Why the request failed after its subshell started (its directory could not be entered). */
  failed?: Error;
}

/**
 * Run `git -c core.quotePath=false ARGS` for each query in `cwd` with `env`, through the host: null,
 * and the caller spawns git itself, where there is no POSIX shell (Windows), no host can be started,
 * or the environment has a name the shell cannot set.
 */
export function hostedGit(cwd: string, queries: readonly HostedQuery[], env: Record<string, string>): HostedRun | null {
  if (!shellAvailable()) return null;
  try {
    host ??= new Host(env);
  } catch {
    // No temporary directory or no process to be had: the caller's own spawn says why, if it fails too.
    return null;
  }
  return host.run(resolve(cwd), queries, env);
}

let host: Host | undefined;

/** The host shell's pid, when one runs (for a test that checks it reaps what it starts). */
export function shellHostPid(): number | undefined {
  return host?.pid;
}

let available: boolean | undefined;
/** Whether this system has the POSIX shell the host runs (not on Windows). */
function shellAvailable(): boolean {
  available ??= process.platform !== 'win32' && existsSync(SHELL);
  return available;
}

class Host {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly dir: string;
  private readonly requests = new Map<number, Request>();
  private nextId = 1;
  private pending = '';
  private dead: unknown = null;

  constructor(private readonly env0: Record<string, string>) {
    this.dir = mkdtempSync(join(tmpdir(), 'rulec-git-'));
    const dir = this.dir;
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    this.child = spawn(SHELL, ['-s'], { cwd: '/', env: env0, stdio: 'pipe' });
    this.child.stdout.on('data', (b: Buffer) => this.onData(b));
    this.child.stderr.resume();
    this.child.stdin.on('error', (e: unknown) => this.fail(e));
    this.child.on('error', (e: unknown) => this.fail(e));
    // 'exit', not 'close': a subshell still running holds the host's stdout open.
    this.child.on('exit', () => this.fail(new Error(`${SHELL} (rulec's git host) ended`)));
    // The directory lives as long as the shell: a process killed before its 'exit' handler ran
    // closes the shell's stdin, and the shell removes the directory as it ends.
    this.child.stdin.write(cleanupScript(dir));
    this.idle();
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  run(cwd: string, queries: readonly HostedQuery[], env: Record<string, string>): HostedRun | null {
    for (const q of queries) for (const a of q.args) if (a.includes('\0')) return refused(queries.length, new TypeError(`git argument holds null bytes: ${JSON.stringify(a)}`));
    if (cwd.includes('\0')) return refused(queries.length, new TypeError('git directory holds null bytes'));
    const setEnv = envScript(this.env0, env);
    if (setEnv === null) return null;
    const id = this.nextId++;
    const request: Request = { count: queries.length, codes: [], results: [], answers: queries.map(() => settable()), done: settable(), reported: 0 };
    this.requests.set(id, request);
    this.busy();
    const file = (name: string): string => join(this.dir, `${id}.${name}`);
    const inputs = queries.map((q, i) => (q.input === undefined ? null : writeFile(file(`in${i}`), q.input, { mode: 0o600 })));
    void Promise.all(inputs).then(() => {
      if (this.dead !== null) return this.settleDead(id, request);
      this.child.stdin.write(requestScript(id, cwd, setEnv, queries, file));
    }, (e: unknown) => this.reject(id, request, e));
    return { each: request.answers.map((a) => a.promise), all: request.done.promise };
  }

  private onData(b: Buffer): void {
    const lines = (this.pending + b.toString('latin1')).split('\n');
    this.pending = lines.pop() ?? '';
    for (const line of lines) {
      const [id, what, value] = line.split(' ');
      const request = this.requests.get(Number(id));
      if (request === undefined) continue;
      if (what === 'p') request.pid = Number(value);
      else if (what === 'c') {
        request.failed = new Error('cannot run git there: the directory does not exist or cannot be entered');
        request.reported = request.count;
      } else this.answer(Number(id), request, Number(what), Number(value));
      this.finishIfDone(Number(id), request);
    }
  }

  private answer(id: number, request: Request, i: number, code: number): void {
    if (!Number.isInteger(i) || i < 0 || i >= request.count || request.codes[i] !== undefined) return;
    request.codes[i] = code;
    request.reported++;
    const out = join(this.dir, `${id}.${i}`);
    // The shell creates the file before git starts: without it (the host died and its directory
    // went), the query has no answer, whatever its status said.
    void readFile(out).then((stdout) => ({ code, stdout }), () => ({ code: -1, stdout: Buffer.alloc(0) })).then((answer) => {
      request.results[i] = answer;
      request.answers[i]?.resolve(answer);
      return rm(out, { force: true });
    });
  }

  private finishIfDone(id: number, request: Request): void {
    if (request.reported < request.count || request.pid === undefined || !this.requests.has(id)) return;
    this.requests.delete(id);
    // The subshell has reported every query and is ending: reaped now, so the host keeps no zombie.
    this.child.stdin.write(`wait ${request.pid} 2>/dev/null\n`);
    const err = join(this.dir, `${id}.err`);
    if (request.failed !== undefined) {
      for (const a of request.answers) a.reject(request.failed);
      request.done.reject(request.failed);
      void this.cleanup(id, request.count, err);
    } else void Promise.all([Promise.all(request.answers.map((a) => a.promise)), readFile(err, 'utf8').catch(() => '')]).then(([results, stderr]) => {
      request.done.resolve({ results, stderr });
      return this.cleanup(id, request.count, err);
    });
    if (this.requests.size === 0) this.idle();
  }

  private cleanup(id: number, count: number, err: string): Promise<unknown> {
    return Promise.all([rm(err, { force: true }), ...Array.from({ length: count }, (_, i) => rm(join(this.dir, `${id}.in${i}`), { force: true }))]);
  }

  private reject(id: number, request: Request, e: unknown): void {
    this.requests.delete(id);
    void this.cleanup(id, request.count, join(this.dir, `${id}.err`));
    for (const a of request.answers) a.reject(e);
    request.done.reject(e);
    if (this.requests.size === 0) this.idle();
  }

  /** The host ended or cannot be written to: queries it never reported on count as failed (-1), as a killed shell's did. */
  private fail(e: unknown): void {
    if (this.dead !== null) return;
    this.dead = e;
    if (host === this) host = undefined;
    for (const [id, request] of [...this.requests]) this.settleDead(id, request);
    rmSync(this.dir, { recursive: true, force: true });
  }

  private settleDead(id: number, request: Request): void {
    this.requests.delete(id);
    // An answer whose output was not read yet fails too: a status without its output is no answer.
    const results = request.answers.map((_, i) => request.results[i] ?? { code: -1, stdout: Buffer.alloc(0) });
    results.forEach((r, i) => request.answers[i]?.resolve(r));
    request.done.resolve({ results, stderr: '' });
  }

  /** Only requests in flight keep the process alive: an idle host does not. */
  private idle(): void {
    this.child.unref();
    for (const s of [this.child.stdin, this.child.stdout, this.child.stderr]) (s as unknown as { unref?: () => void }).unref?.();
  }

  private busy(): void {
    this.child.ref();
    for (const s of [this.child.stdin, this.child.stdout, this.child.stderr]) (s as unknown as { ref?: () => void }).ref?.();
  }
}

/**
 * The request as the host reads it: a subshell in the background (its queries in the background
 * within it, then a wait for each in query order), and the subshell's pid.
 */
function requestScript(id: number, cwd: string, setEnv: string, queries: readonly HostedQuery[], file: (name: string) => string): string {
  const jobs = queries.map((q, i) => {
    const stdin = q.input === undefined ? '/dev/null' : file(`in${i}`);
    return `command git -c core.quotePath=false ${q.args.map(quote).join(' ')} <${quote(stdin)} >${quote(file(String(i)))} 2>>${quote(file('err'))} &\nq${i}=$!`;
  });
  const waits = queries.map((_, i) => `wait "$q${i}"; echo "${id} ${i} $?"`);
  return `(cd -P -- ${quote(cwd)} 2>/dev/null || { echo "${id} c"; exit 0; }\n${setEnv}${jobs.join('\n')}\n${waits.join('\n')}\n) </dev/null &\necho "${id} p $!"\n`;
}

/** The shell's first line: remove `dir` when it ends (at the end of its input, or on a signal that ends it). */
export function cleanupScript(dir: string): string {
  return `trap ${quote(`rm -rf -- ${quote(dir)}`)} EXIT; trap 'exit 129' HUP; trap 'exit 130' INT; trap 'exit 143' TERM\n`;
}

/** Shell lines that turn the host's environment into `env`; null when a name is not a shell name. */
export function envScript(env0: Record<string, string>, env: Record<string, string>): string | null {
  const unset: string[] = [];
  const set: string[] = [];
  for (const k of Object.keys(env0)) if (!Object.hasOwn(env, k)) unset.push(k);
  // `cd` sets these two in the subshell; spawn() would pass the caller's values as they are.
  for (const k of ['PWD', 'OLDPWD']) if (!Object.hasOwn(env0, k) && !Object.hasOwn(env, k)) unset.push(k);
  for (const [k, v] of Object.entries(env)) if (env0[k] !== v || k === 'PWD' || k === 'OLDPWD') set.push(`${k}=${quote(v)}`);
  if ([...unset, ...set.map((s) => s.slice(0, s.indexOf('=')))].some((k) => !NAME.test(k))) return null;
  if (set.some((s) => s.includes('\0'))) return null;
  return `${unset.length > 0 ? `unset ${unset.join(' ')}\n` : ''}${set.length > 0 ? `export ${set.join(' ')}\n` : ''}`;
}

/** A run refused before it starts (an argument spawn() would refuse too): every answer fails. */
function refused(count: number, e: unknown): HostedRun {
  const all = Promise.reject(e);
  const each = Array.from({ length: count }, () => Promise.reject(e));
  for (const p of [all, ...each]) p.catch(() => undefined);
  return { each, all };
}

/** `'…'` with each `'` as `'\''`: the shell takes it as one word, exactly. */
export function quote(arg: string): string {
  return `'${arg.replaceAll("'", "'\\''")}'`;
}

interface Settable<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (e: unknown) => void;
}

/** A promise with its resolve and reject (the first call settles it); a rejection nobody awaits is not unhandled. */
function settable<T>(): Settable<T> {
  let resolve!: (value: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}
