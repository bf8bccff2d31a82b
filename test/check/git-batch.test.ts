/**
 * git-batch.ts: several git queries through one shell. Every argument reaches
 * git exactly as given, each query's stdout comes back whole (any byte, NULs
 * included) with its own exit status, in query order, each once it and the
 * queries before it have ended; the per-query spawns used where there is no
 * shell answer the same.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitBatch, startGitBatch, type QueryResult } from '../../src/source/git-batch.js';

let repo: string;
beforeAll(() => {
  repo = mkdtempSync(join(tmpdir(), 'rulec-batch-'));
  execFileSync('git', ['init', '-q', '--template=', repo]);
  writeFileSync(join(repo, 'a b.md'), 'x');
  writeFileSync(join(repo, "it's $HOME `x`.md"), 'y');
  execFileSync('git', ['add', '-A'], { cwd: repo });
});
afterAll(() => rmSync(repo, { recursive: true, force: true }));

const text = (b: Buffer): string => b.toString('utf8');

/** `p`, or null when it has not settled within `ms` (the timer is cleared either way). */
async function within<T>(p: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([p, new Promise<null>((r) => (timer = setTimeout(() => r(null), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

describe('gitBatch', () => {
  it.each([true, false])('shell %s: outputs in query order, NULs kept, each with its own status', async (shell) => {
    const { results, stderr } = await gitBatch(repo, [
      ['ls-files', '-z'],
      ['config', '--get', 'no.such-key'],
      ['rev-parse', '--is-inside-work-tree'],
      ['no-such-command'],
    ], { shell });
    expect(results.map((r) => r.code)).toEqual([0, 1, 0, 1]);
    expect(text(results[0]!.stdout)).toBe("a b.md\0it's $HOME `x`.md\0");
    expect(text(results[1]!.stdout)).toBe('');
    expect(text(results[2]!.stdout)).toBe('true\n');
    expect(stderr).toContain('no-such-command');
  });

  it.each([true, false])('shell %s: a quick answer comes, whole, while a slow query after it still runs', async (shell) => {
    // The slow query reads one line from a FIFO, which the test writes only after the quick answer
    // came. The test holds the FIFO open for reading and writing from the start, so neither side's
    // open blocks and the line waits in the FIFO however late the slow query opens it.
    const dir = mkdtempSync(join(tmpdir(), 'rulec-fifo-'));
    const fifo = join(dir, 'gate');
    execFileSync('mkfifo', [fifo]);
    const gate = openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK);
    try {
      const { each, all } = startGitBatch(repo, [['ls-files', '-z'], ['-c', `alias.slow=!read -r line < '${fifo.replaceAll("'", "'\\''")}'`, 'slow']], { shell });
      let slowEnded = false;
      void each[1]!.then(() => (slowEnded = true));
      let quick: QueryResult | null = null;
      try {
        quick = await within(each[0]!, 20_000);
        expect(slowEnded).toBe(false);
      } finally {
        writeSync(gate, 'go\n'); // lets the slow query end, whatever happened above
      }
      expect(quick && [quick.code, text(quick.stdout)]).toEqual([0, "a b.md\0it's $HOME `x`.md\0"]);
      expect((await within(all, 20_000))?.results.map((r) => r.code)).toEqual([0, 0]);
    } finally {
      closeSync(gate);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fails every answer, not only the whole batch, when the shell cannot be started', async () => {
    // spawn() throws at once for an argument holding a NUL: no 'error' event comes.
    const { each, all } = startGitBatch(repo, [['config', '--get', 'a\0b'], ['rev-parse', '--is-inside-work-tree']], { shell: true });
    await expect(all).rejects.toThrow(/null bytes/);
    for (const answer of each) await expect(within(answer, 5_000)).rejects.toThrow(/null bytes/);
  });

  it('passes every argument to git exactly as given, whatever the shell would make of it', async () => {
    // Values set with -c and read back with config --get-regexp: git prints them verbatim.
    const special = fc.constantFrom("'", '"', '$', '$HOME', '$(echo x)', '`echo x`', '\\', ' ', '\t', '\n', '*', '?', '[a]', ';', '&', '|', '>', '<', '#', '~', '{a,b}', '!');
    const piece = fc.oneof(special, fc.string({ unit: 'binary', maxLength: 6 }).filter((s) => !s.includes('\0') && !/[\ud800-\udfff]/.test(s)));
    const value = fc.array(piece, { minLength: 1, maxLength: 8 }).map((p) => p.join(''));
    // Up to three values per query (read back NUL-separated), so fewer runs start as many git processes.
    await fc.assert(fc.asyncProperty(fc.array(fc.array(value, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 4 }), async (perQuery) => {
      const queries = perQuery.map((values) => [...values.flatMap((v, i) => ['-c', `rulec.v${i}=${v}`]), 'config', '-z', '--get-regexp', '^rulec[.]v']);
      const [viaShell, direct] = await Promise.all([gitBatch(repo, queries, { shell: true }), gitBatch(repo, queries, { shell: false })]);
      // Git prints each value as it was given (`-z`: key, newline, value, NUL), by either way of starting it.
      expect(direct.results.map((r) => text(r.stdout))).toEqual(perQuery.map((values) => values.map((v, i) => `rulec.v${i}\n${v}\0`).join('')));
      expect(viaShell.results.map((r) => text(r.stdout))).toEqual(direct.results.map((r) => text(r.stdout)));
      expect(viaShell.results.map((r) => r.code)).toEqual(direct.results.map((r) => r.code));
    }), { numRuns: 30 });
  });

  it('gives git no descriptor but its own stdout: a GIT_TRACE to fd 4 writes into no other answer', async () => {
    const saved = process.env.GIT_TRACE;
    process.env.GIT_TRACE = '4';
    try {
      const { results } = await gitBatch(repo, [['ls-files', '-z'], ['rev-parse', '--is-inside-work-tree']]);
      expect(results.map((r) => [r.code, text(r.stdout)])).toEqual([[0, "a b.md\0it's $HOME `x`.md\0"], [0, 'true\n']]);
    } finally {
      if (saved === undefined) delete process.env.GIT_TRACE;
      else process.env.GIT_TRACE = saved;
    }
  });

  it('does not wait for a process git leaves running (a hook or daemon that keeps only fds 0-2 closed)', async () => {
    // The alias's sleep outlives git; had it inherited a query's pipe, the batch would wait for it.
    const started = performance.now();
    const { results } = await gitBatch(repo, [['-c', 'alias.bg=!sleep 30 </dev/null >/dev/null 2>&1 &', 'bg'], ['rev-parse', '--is-inside-work-tree']]);
    expect(results.map((r) => r.code)).toEqual([0, 0]);
    expect(performance.now() - started).toBeLessThan(15_000);
  });

  it.each([true, false])('shell %s: without git on PATH every query fails with status 127, nothing thrown', async (shell) => {
    const saved = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      const { results } = await gitBatch(repo, [['rev-parse', '--is-inside-work-tree'], ['ls-files']], { shell });
      expect(results.map((r) => [r.code, r.stdout.length])).toEqual([[127, 0], [127, 0]]);
    } finally {
      process.env.PATH = saved;
    }
  });

  it.each([true, false])('shell %s: answers any number of queries, each with its own output', async (shell) => {
    const { results } = await gitBatch(repo, Array.from({ length: 12 }, (_, i) => ['-c', `x.k${i}=v${i}`, 'config', '--get', `x.k${i}`]), { shell });
    expect(results.map((r) => [r.code, text(r.stdout)])).toEqual(Array.from({ length: 12 }, (_, i) => [0, `v${i}\n`]));
  });

  it('answers nothing for no queries', async () => {
    expect(await gitBatch(repo, [])).toEqual({ results: [], stderr: '' });
  });
});
