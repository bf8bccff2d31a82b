/**
 * The built binary as a process: what an in-process run of main() cannot
 * show. Exit statuses and which stream carries what, a reader that closes the
 * pipe early, the package's bin entry, and what start-up loads:
 * `--help` and `explain-code` must not load a tokenizer rank table or the
 * pipeline, `explain --bundle` only the bundle reader, and a build loads the
 * rank table of the policy's encoding only.
 * Builds are few: each process builds a tokenizer rank table (about a second).
 * Every other CLI case runs in-process (cli.test.ts, helpers/run-cli.ts).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedBadInput } from './bad-inputs/stage-case.js';
import { sharedCase } from './helpers/fixture-repo.js';
import { runCli } from './helpers/run-cli.js';

const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'dist', 'cli', 'bin.js');
const TRACE = join(import.meta.dirname, 'helpers', 'trace-loads.mjs');
const scratch = mkdtempSync(join(tmpdir(), 'rulec-process-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

beforeAll(() => {
  if (!existsSync(BIN)) throw new Error('dist/cli/bin.js is missing: run npm run build (npm test does)');
});

function rulec(args: string[], options: { cwd?: string; entry?: string; node?: string[]; env?: Record<string, string> } = {}) {
  const r = spawnSync(process.execPath, [...(options.node ?? []), options.entry ?? BIN, ...args], {
    cwd: options.cwd ?? ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', ...options.env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('the rulec process', () => {
  it('--help: usage on stdout, nothing on stderr, exit 0', () => {
    const r = rulec(['--help']);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toMatch(/^Usage: rulec <command>/);
  });

  it('a usage error: one line on stderr, nothing on stdout, exit 2, no stack trace', () => {
    const r = rulec(['build', '--frobnicate']);
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toBe('rulec build: unknown option --frobnicate; see --help\n');
  });

  it('a reader that closes the pipe early is not an error (EPIPE): exit 0, nothing on stderr', async () => {
    const child = spawn(process.execPath, [BIN, 'explain-code'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  });

  it('the package\'s bin is dist/cli/bin.js', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; bin: Record<string, string> };
    expect(pkg.bin.rulec).toBe('dist/cli/bin.js');
    expect(rulec(['--version'])).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
  });
});

describe('start-up loads only what the command uses', () => {
  /** Every module file the process loaded (ESM and CommonJS, every thread), project-relative. */
  function loaded(args: string[], cwd = ROOT): { code: number | null; stdout: string; stderr: string; files: string[] } {
    const trace = join(mkdtempSync(join(scratch, 'trace-')), 'loads.txt');
    writeFileSync(trace, '');
    const r = rulec(args, { cwd, node: ['--import', TRACE], env: { RULEC_TRACE_LOADS: trace } });
    const files = readFileSync(trace, 'utf8').split('\n').filter(Boolean)
      .map((u) => u.replace(/^file:\/\//, '').replace(`${ROOT}/`, ''));
    return { ...r, files: [...new Set(files)] };
  }
  const rankTables = (files: string[]): string[] => files.filter((f) => /js-tiktoken\/dist\/ranks\//.test(f)).map((f) => f.replace(/.*\/ranks\/|\.c?js$/g, '')).sort();
  const pipeline = (files: string[]): string[] => files.filter((f) => /^dist\/(compile\.js$|(source|discover|parse|resolve|render|conflicts|profiles|validate|emit)\/)/.test(f));

  it.each([
    [['--help']],
    [['explain-code', 'RC2102']],
    [['explain-code']],
    [['build', '--help']],
  ])('rulec %j loads no rank table and no pipeline stage', (args) => {
    const r = loaded(args);
    expect(r.code).toBe(0);
    expect(r.files).toContain('dist/cli/main.js');
    expect(rankTables(r.files)).toEqual([]);
    expect(pipeline(r.files)).toEqual([]);
  });

  it('explain PATH --bundle DIR loads no rank table, no other pipeline stage, no YAML, schema compiler or git library', async () => {
    const m = sharedCase('nested-agents');
    const out = join(scratch, 'for-explain');
    expect((await runCli(['build', '--repo', m.repo, '--out', out])).code).toBe(0);
    const bundle = join(out, readFileSync(join(out, 'current'), 'utf8').trim());
    const r = loaded(['explain', 'packages/api/src/routes/users.ts', '--repo', m.repo, '--bundle', bundle]);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toContain('(from bundle ');
    expect(r.files).toContain('dist/bundle/open-bundle.js');
    expect(rankTables(r.files)).toEqual([]);
    // What explain from a bundle does use: attachment globs compiled as the resolver compiles them
    // (resolve/glob-compile.js and its linear matcher glob-linear.js) and narrowed by their text
    // (glob-shape.js); not the resolver's index over a path list (glob-index.js). No other stage, and the
    // manifest is checked by generated code. The secret finder is loaded only to warn about the
    // text --text prints; the freshness check (policy, discovery) only without --bundle. Whether
    // PATH is in the work tree is asked as a read asks it (confined/resolve-beneath.js: nothing outside
    // the repository is stat'ed), and nothing is read.
    const used = /^dist\/resolve\/glob-(compile|shape|linear)\b/;
    expect(pipeline(r.files).filter((f) => !used.test(f))).toEqual([]);
    expect(r.files.filter((f) => /^dist\/(config\/(policy|load-policy)\.js$|confined\/(?!resolve-beneath\.js$)|cli\/commands\/(explain-worktree|print-context)\.js$)/.test(f))).toEqual([]);
    // The bundle reader reports RC70xx codes from their own catalogue file; the whole catalogue is not loaded.
    expect(r.files.filter((f) => /^dist\/diagnostics\/catalogue(\.js|-(?!bundle))/.test(f))).toEqual([]);
    // The manifest is validated by ajv's standalone code (one small runtime helper), never by compiling the schema.
    expect(r.files.filter((f) => /node_modules\/(yaml|simple-git|js-tiktoken|ajv-formats)\/|node_modules\/ajv\/dist\/(?!runtime\/)/.test(f))).toEqual([]);
  });

  // The controls: the same trace sees a rank table when one is loaded, so the tests above can fail.
  it('a clean build: exit 0, nothing on stderr, the bundle written; it loads the default encoding\'s rank table and no other, and no schema compiler without a policy file (frontmatter is checked by generated code)', () => {
    const m = sharedCase('claude-rules');
    const out = join(scratch, 'clean');
    const r = loaded(['build', '--repo', m.repo, '--out', out]);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(readdirSync(out).sort()).toEqual([expect.stringMatching(/^b-[0-9a-f]{16}$/), 'current']);
    expect(rankTables(r.files)).toEqual(['o200k_base']);
    expect(pipeline(r.files)).toContain('dist/compile.js');
    // The rules' frontmatter was checked, by the generated validators: ajv's runtime helpers and ajv-formats' table of formats only.
    expect(r.files).toContain('dist/validate/frontmatter-validators.gen.js');
    expect(r.files.filter((f) => /node_modules\/ajv(-formats)?\/dist\/(?!runtime\/|formats\.js$)/.test(f))).toEqual([]);
  });

  it('errors found: the report on stdout, nothing on stderr, exit 1, nothing written; a cl100k_base policy without profiles loads cl100k_base only', () => {
    const m = sharedBadInput('import-outside-repo');
    const policy = join(scratch, 'cl100k.yaml');
    writeFileSync(policy, 'version: 1\ntokenizer: cl100k_base\nprofiles:\n  enabled: []\n');
    const out = join(scratch, 'failed');
    const r = loaded(['build', '--repo', m.repo, '--policy', policy, '--out', out, '--format', 'json']);
    expect(r).toMatchObject({ code: 1, stderr: '' });
    expect((JSON.parse(r.stdout) as { written: string | null; diagnostics: { code: string }[] })).toMatchObject({ written: null, diagnostics: [{ code: 'RC2104' }] });
    expect(existsSync(out)).toBe(false);
    expect(rankTables(r.files)).toEqual(['cl100k_base']);
  });
});
