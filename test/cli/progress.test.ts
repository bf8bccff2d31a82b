/**
 * The progress line (cli/progress.ts): nothing unless stderr is a terminal and
 * the build has run past the delay; then the stage, rewritten in place, and
 * erased at the end. Nothing with --quiet or a JSON report.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Io } from '../../src/cli/io.js';
import { BUILD_STAGES, progressFor, PROGRESS_DELAY_MS } from '../../src/cli/progress.js';
import { COMPILE_STAGES, type CompileStage } from '../../src/compile-stages.js';
import { compile } from '../../src/compile.js';
import { main } from '../../src/cli/main.js';
import { sharedCase } from '../helpers/fixture-repo.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function terminal(): { io: Io; lines: string[] } {
  const lines: string[] = [];
  return { io: { out: () => undefined, err: () => undefined, cwd: '/', status: (l) => void lines.push(l) }, lines };
}

describe('progress line', () => {
  beforeEach(() => { vi.useFakeTimers(); });
  afterEach(() => { vi.useRealTimers(); });

  it('covers every compile stage, then writing, in order', () => {
    expect(BUILD_STAGES).toEqual([...COMPILE_STAGES, 'write']);
  });

  it('shows nothing for a build that ends before the delay', () => {
    const { io, lines } = terminal();
    const p = progressFor(io, { command: 'build', quiet: false, json: false });
    p.stage('discover', 10);
    p.stage('parse', 2);
    vi.advanceTimersByTime(PROGRESS_DELAY_MS - 1);
    p.end();
    vi.advanceTimersByTime(10 * PROGRESS_DELAY_MS);
    expect(lines).toEqual([]);
  });

  it('past the delay: the current stage with its count, each later stage rewritten, erased at the end', () => {
    const { io, lines } = terminal();
    const p = progressFor(io, { command: 'build', quiet: false, json: false });
    p.stage('discover', 100000);
    p.stage('parse', 2000);
    vi.advanceTimersByTime(PROGRESS_DELAY_MS);
    p.stage('resolve', 100000);
    p.stage('write', 3798);
    p.end();
    expect(lines).toEqual([
      'rulec build: 2/7 parsing 2,000 instruction files…',
      'rulec build: 3/7 resolving the context of 100,000 paths…',
      'rulec build: 7/7 writing the bundle (3,798 contexts)…',
      '',
    ]);
  });

  it.each([
    ['stderr is not a terminal', { out: () => undefined, err: () => undefined, cwd: '/' } as Io, { quiet: false, json: false }],
    ['--quiet', terminal().io, { quiet: true, json: false }],
    ['a JSON report on stdout', terminal().io, { quiet: false, json: true }],
  ])('shows nothing when %s', (_name, io, flags) => {
    const seen: string[] = [];
    const watched: Io = io.status ? { ...io, status: (l) => void seen.push(l) } : io;
    const p = progressFor(watched, { command: 'build', ...flags });
    p.stage('discover', 1);
    vi.advanceTimersByTime(10 * PROGRESS_DELAY_MS);
    p.stage('count', 5);
    p.end();
    expect(seen).toEqual([]);
  });
});

describe('the stages compile() reports', () => {
  it('are every stage, in order, each with the count of what it works on', async () => {
    const fixture = sharedCase('claude-rules');
    const seen: [CompileStage, number | undefined][] = [];
    const r = await compile({ repoDir: fixture.repo, outDir: join(tmpdir(), 'rulec-progress-unused'), onStage: (s, n) => void seen.push([s, n]) });
    expect(seen.map(([s]) => s)).toEqual([...COMPILE_STAGES]);
    expect(seen).toEqual([
      ['discover', undefined],
      ['parse', r.discovered.files.length],
      ['resolve', r.discovered.paths.length],
      ['conflicts', r.resolution.sources.size],
      ['count', expect.any(Number)],
      ['render', r.resolution.variants.length],
    ]);
  });
});

describe('rulec build on a terminal', () => {
  afterEach(() => { vi.useRealTimers(); });

  it('shows the stages once the build has run past the delay, then erases the line; --quiet and --format json show nothing', async () => {
    const fixture = sharedCase('claude-rules');
    const out = mkdtempSync(join(tmpdir(), 'rulec-progress-'));
    try {
      const build = async (extra: string[]): Promise<{ code: number; lines: string[]; stdout: string }> => {
        vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
        const lines: string[] = [];
        let stdout = '';
        let done = false;
        const running = main(['build', '--repo', fixture.repo, '--out', join(out, String(extra.length)), ...extra],
          { out: (t) => { stdout += t; }, err: () => undefined, cwd: fixture.repo, status: (l) => void lines.push(l) })
          .finally(() => { done = true; });
        // The build runs on real I/O; the clock moves only here. Once the progress timer exists (it is
        // set before compile starts, and compile then waits on git for several turns of the event
        // loop), move the clock past the delay at once, then keep it moving until the build ends.
        const turn = (): Promise<void> => new Promise((r) => setImmediate(r));
        while (!done && vi.getTimerCount() === 0) await turn();
        vi.advanceTimersByTime(PROGRESS_DELAY_MS);
        while (!done) {
          await turn();
          vi.advanceTimersByTime(PROGRESS_DELAY_MS / 5);
        }
        const code = await running;
        vi.useRealTimers();
        return { code, lines, stdout };
      };
      const shown = await build([]);
      expect(shown.code).toBe(0);
      expect(shown.lines.at(-1)).toBe('');
      const stages = shown.lines.slice(0, -1);
      expect(stages.length).toBeGreaterThan(0);
      for (const l of stages) expect(l).toMatch(/^rulec build: [1-7]\/7 [a-z]/);
      const numbers = stages.map((l) => Number(/ (\d)\/7 /.exec(l)?.[1]));
      expect(numbers).toEqual([...numbers].sort());
      expect(stages.at(-1)).toMatch(/^rulec build: 7\/7 writing the bundle \(\d+ contexts\)…$/);
      expect(shown.stdout).not.toContain('rulec build: ');
      expect((await build(['--quiet'])).lines).toEqual([]);
      expect((await build(['--format', 'json'])).lines).toEqual([]);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
