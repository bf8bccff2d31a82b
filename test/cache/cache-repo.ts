/**
 * A small private git repository for the build-cache tests, built with the
 * build cache on (vitest.config.ts turns it off for every other test: shared
 * fixture trees are read-only, and a build writes its cache into the repository).
 *
 *   const r = cacheRepo({ 'AGENTS.md': '# Root\n' });
 *   const warm = await build(r.repo, r.out('warm'));
 *   const cold = await build(r.repo, r.out('cold'), '--no-cache');
 *   expect(bundleTree(warm.dir)).toEqual(bundleTree(cold.dir));
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { GIT_ADD_ALL, GIT_INIT, gitCommit, gitSteps } from '../helpers/fixture-repo.js';
import { runCli, type CliRun } from '../helpers/run-cli.js';

export interface CacheRepo {
  /** Holds repo/ and every out dir; the caller removes it. */
  dir: string;
  repo: string;
  out(name: string): string;
  write(rel: string, text: string): void;
  commit(): void;
}

export function cacheRepo(files: Record<string, string>): CacheRepo {
  const dir = mkdtempSync(join(tmpdir(), 'rulec-cache-'));
  const repo = join(dir, 'repo');
  mkdirSync(repo);
  const write = (rel: string, text: string): void => {
    mkdirSync(dirname(join(repo, rel)), { recursive: true });
    writeFileSync(join(repo, rel), text);
  };
  for (const [rel, text] of Object.entries(files)) write(rel, text);
  const steps = [GIT_ADD_ALL, gitCommit('step')];
  const commit = (): void => void gitSteps(repo, steps);
  gitSteps(repo, [GIT_INIT, ...steps]);
  return { dir, repo, out: (name) => join(dir, name), write, commit };
}

/** `rulec ARGS…` in process in `repo`, with the cache on (unless --no-cache): the suite turns it off. */
export async function cachedCli(repo: string, ...args: string[]): Promise<CliRun> {
  const was = process.env.RULEC_NO_CACHE;
  delete process.env.RULEC_NO_CACHE;
  try {
    return await runCli(args, repo);
  } finally {
    if (was !== undefined) process.env.RULEC_NO_CACHE = was;
  }
}

/** `rulec build --repo REPO --out OUT …` in process, with the cache on (unless --no-cache). */
export async function build(repo: string, out: string, ...args: string[]): Promise<CliRun & { dir: string | null }> {
  const r = await cachedCli(repo, 'build', '--repo', repo, '--out', out, ...args);
  const id = /\bb-[0-9a-f]{16}\b/.exec(r.stdout)?.[0];
  return { ...r, dir: id && r.code === 0 ? join(out, id) : null };
}

/** Every file below `dir`: path → bytes (hex), for whole-tree comparison. */
export function bundleTree(dir: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  if (dir === null) return out;
  const walk = (abs: string, rel: string): void => {
    for (const e of readdirSync(abs, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(abs, e.name), `${rel}${e.name}/`);
      else out[`${rel}${e.name}`] = readFileSync(join(abs, e.name)).toString('hex');
    }
  };
  walk(dir, '');
  return out;
}

/** The report with the bundle directory shown taken out (a warm and a cold build write to different ones). */
export function shown(r: CliRun): string {
  return r.stdout.replace(/^( {2}written +)\S+$/m, '$1<out>');
}

export function removeRepo(r: CacheRepo): void {
  rmSync(r.dir, { recursive: true, force: true });
}
