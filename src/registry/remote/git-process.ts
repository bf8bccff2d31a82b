/**
 * Running git for the git store, always against the store's private scratch
 * repository (`--git-dir`), never the user's work tree or index: the
 * variables that would point git elsewhere are removed from its environment,
 * it never prompts for credentials (a hung prompt is worse than a clear
 * error), and its messages are in the C locale so they can be recognised.
 *
 * CatFile keeps one `git cat-file --batch` process per store and reads
 * objects through it by name (`<commit>:<path>` or an object id), so reading
 * an index, an audit chunk or a tree costs a pipe round trip, not a process.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { registryError } from '../errors.js';

const REDIRECTING_VARIABLES = [
  'GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_NAMESPACE', 'GIT_PREFIX', 'GIT_COMMON_DIR', 'GIT_QUARANTINE_PATH', 'GIT_SHALLOW_FILE', 'GIT_REPLACE_REF_BASE',
];

let cleanEnv: NodeJS.ProcessEnv | undefined;

/** The environment git runs in (computed once: every git call of a writer would copy it again). */
export function gitEnv(): NodeJS.ProcessEnv {
  if (cleanEnv) return cleanEnv;
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C', LANGUAGE: 'C', GIT_NO_REPLACE_OBJECTS: '1' };
  for (const v of REDIRECTING_VARIABLES) delete env[v];
  cleanEnv = env;
  return env;
}

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run `git --git-dir=DIR ARGS…`; resolves with its exit code and output (a missing git is RC7601). */
export function runGit(gitDir: string, args: readonly string[]): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', [`--git-dir=${gitDir}`, ...args], { env: gitEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.on('error', (e) => reject(gitMissing(e)));
    child.on('close', (code) => resolve({ code: code ?? 1, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }));
  });
}

function gitMissing(e: Error): Error {
  return registryError('RC7601', { file: '', message: `cannot run git: ${(e as NodeJS.ErrnoException).code ?? e.message}`, hint: 'the git store needs git (2.29 or later) on PATH' });
}

export interface GitObject {
  oid: string;
  type: string;
  content: Buffer;
}

interface Waiter {
  resolve(o: GitObject | null): void;
  reject(e: Error): void;
}

/** One long-running `git cat-file --batch`; requests are answered in order. */
export class CatFile {
  private child: ChildProcessWithoutNullStreams | null = null;
  private buffer: Buffer = Buffer.alloc(0);
  private readonly waiting: Waiter[] = [];

  constructor(private readonly gitDir: string) {}

  read(name: string): Promise<GitObject | null> {
    if (/[\n\0]/.test(name)) return Promise.resolve(null);
    const child = this.start();
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.hold(true);
      child.stdin.write(`${name}\n`);
    });
  }

  close(): void {
    this.child?.stdin.end();
    this.child = null;
  }

  private start(): ChildProcessWithoutNullStreams {
    if (this.child) return this.child;
    const child = spawn('git', [`--git-dir=${this.gitDir}`, 'cat-file', '--batch'], { env: gitEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdout.on('data', (d: Buffer) => this.received(d));
    child.stderr.on('data', () => undefined);
    const fail = (e: Error): void => {
      if (this.child === child) this.child = null;
      for (const w of this.waiting.splice(0)) w.reject(e);
    };
    child.on('error', (e) => fail(gitMissing(e)));
    child.on('close', (code) => fail(registryError('RC7601', { file: '', message: `git cat-file exited (${code}) while reading the scratch repository ${this.gitDir}` })));
    this.child = child;
    return child;
  }

  /** Keep the event loop alive only while a request is pending (an idle reader never holds a process open). */
  private hold(on: boolean): void {
    const c = this.child;
    if (!c) return;
    for (const h of [c, c.stdin, c.stdout, c.stderr] as { ref(): void; unref(): void }[]) (on ? h.ref() : h.unref());
  }

  private received(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const nl = this.buffer.indexOf(0x0a);
      if (nl < 0 || this.waiting.length === 0) break;
      const header = this.buffer.subarray(0, nl).toString('utf8');
      const m = /^([0-9a-f]{40,64}) (\w+) (\d+)$/.exec(header);
      if (!m) {
        // "<name> missing" or "<name> ambiguous": no object by that name.
        this.buffer = this.buffer.subarray(nl + 1);
        (this.waiting.shift() as Waiter).resolve(null);
      } else {
        const size = Number(m[3]);
        if (this.buffer.length < nl + 1 + size + 1) break;
        const content = Buffer.from(this.buffer.subarray(nl + 1, nl + 1 + size));
        this.buffer = this.buffer.subarray(nl + 1 + size + 1);
        (this.waiting.shift() as Waiter).resolve({ oid: m[1] as string, type: m[2] as string, content });
      }
    }
    if (this.waiting.length === 0) this.hold(false);
  }
}
