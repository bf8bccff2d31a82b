/**
 * Reports from the CLI, end to end (in process, helpers/run-cli.ts): --format
 * and --report on build and lint; a failed build's JSON keeps the summary,
 * every diagnostic and every conflict event; report files are written even
 * when the build fails; and no format, on stdout or in a file, ever prints a
 * secret the lint found or lets a hostile directory name become markup.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, constants, existsSync, lstatSync, mkdirSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliRun } from '../helpers/run-cli.js';
import { ALNUM, fakeToken } from '../lint/lint-input.js';

const FORMATS = ['text', 'json', 'markdown', 'sarif', 'github', 'html'] as const;
const dir = mkdtempSync(join(tmpdir(), 'rulec-reports-'));
const repo = join(dir, 'repo');
const managed = join(dir, 'managed');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const rulec = (args: string[]): Promise<CliRun> => runCli(args, repo);

// Deterministic, random-looking tokens, so no real-looking secret is committed.
const SECRETS = [`ghp_${fakeToken(36, ALNUM, 11)}`, `AKIA${fakeToken(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 12)}`, fakeToken(28, ALNUM, 13)];
const HOSTILE_DIR = 'x"><img src=x onerror=alert(1)><script>alert(2)<\u202e';

beforeAll(() => {
  mkdirSync(join(repo, '.claude', 'rules'), { recursive: true });
  mkdirSync(join(repo, HOSTILE_DIR), { recursive: true });
  mkdirSync(managed);
  writeFileSync(join(managed, 'tools.md'), '---\nenforce: true\nid: tools\n---\n# Tooling\n\n- Always use pnpm; never use npm.\n');
  writeFileSync(join(repo, 'AGENTS.md'), '# Guide\n\n- Run the tests before committing.\n- Use pnpm for installs.\n');
  writeFileSync(join(repo, 'CLAUDE.local.md'), '# Mine\n\n- Use npm for everything.\n');
  writeFileSync(join(repo, HOSTILE_DIR, 'AGENTS.md'), '# Here\n\n- Use yarn for installs.\n');
  writeFileSync(join(repo, '.claude', 'rules', 'deploy.md'),
    `# Deploy\n\nexport GH=${SECRETS[0]}\nAWS key ${SECRETS[1]} for uploads\nDB_PASSWORD=${SECRETS[2]}\n`);
});

const common = (): string[] => ['--managed', managed, '--include-local'];

describe('usage', () => {
  it.each([
    [['build', '--format', 'yaml'], 'unknown format "yaml"; use one of: text, json, markdown, sarif, github, html'],
    [['lint', '--report', 'xml=out.xml'], 'unknown format "xml"; use one of: text, json, markdown, sarif, github, html'],
    [['lint', '--report', 'markdown'], '--report needs FORMAT=FILE, got "markdown"'],
    [['build', '--report', 'sarif='], '--report needs FORMAT=FILE, got "sarif="'],
  ])('%j is refused before anything runs', async (args, message) => {
    const r = await rulec(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stdout).toBe('');
    expect(existsSync(join(repo, 'bundles'))).toBe(false);
  });
});

describe('a failed build', () => {
  const out = join(dir, 'reports');
  let run: CliRun;
  beforeAll(async () => {
    run = await rulec(['build', ...common(), '--format', 'json', ...FORMATS.map((f) => ['--report', `${f}=${join(out, `build.${f}`)}`]).flat()]);
  });

  it('exits 1, writes no bundle, and its JSON keeps the summary, every diagnostic and every conflict event', () => {
    expect(run.code).toBe(1);
    expect(existsSync(join(repo, 'bundles'))).toBe(false);
    const json = JSON.parse(run.stdout) as { written: null; summary: { sources: number }; diagnostics: { code: string }[]; conflicts: { kind: string; severity: string; sides: { source: string }[] }[] };
    expect(json.written).toBeNull();
    expect(json.summary.sources).toBeGreaterThanOrEqual(4);
    expect(json.diagnostics.map((d) => d.code)).toEqual(expect.arrayContaining(['RC3201', 'RC6003']));
    const violation = json.conflicts.find((c) => c.kind === 'violation');
    expect(violation?.severity).toBe('error');
    expect([...new Set(violation?.sides.map((s) => s.source))].sort()).toEqual(['CLAUDE.local.md', 'managed://tools.md']);
    expect(readFileSync(join(out, 'build.json'), 'utf8')).toBe(run.stdout);
  });

  it('writes every --report file, each in its format', () => {
    expect(readFileSync(join(out, 'build.text'), 'utf8')).toContain('  not written  errors found');
    expect(readFileSync(join(out, 'build.markdown'), 'utf8')).toMatch(/^<!-- rulec-report -->\n### ❌ rulec: Build failed: \d+ errors?, nothing written/);
    expect((JSON.parse(readFileSync(join(out, 'build.sarif'), 'utf8')) as { version: string }).version).toBe('2.1.0');
    expect(readFileSync(join(out, 'build.github'), 'utf8')).toMatch(/^::error file=CLAUDE\.local\.md,line=3,/m);
    expect(readFileSync(join(out, 'build.html'), 'utf8')).toMatch(/^<!doctype html>/);
  });

  it('never prints a secret, and the hostile directory stays text', () => {
    for (const f of FORMATS) {
      const text = readFileSync(join(out, `build.${f}`), 'utf8');
      for (const s of SECRETS) expect(text, `${f} leaks a secret`).not.toContain(s);
      if (f === 'html') {
        expect(text.match(/<script/g)).toHaveLength(1);
        expect(text).not.toContain('<img');
        expect(text).toContain('x&quot;&gt;&lt;img src=x onerror=alert(1)&gt;&lt;script&gt;alert(2)&lt;\\u202e/AGENTS.md');
      }
      expect(text).not.toContain('\u202e');
    }
    expect(readFileSync(join(out, 'build.text'), 'utf8')).toMatch(/export GH=ghp_\*{36}/);
  });
});

describe('lint', () => {
  it('prints text and writes every other format without a secret; the text shows the redacted code frame', async () => {
    const out = join(dir, 'lint-reports');
    const r = await rulec(['lint', ...common(), ...FORMATS.slice(1).map((f) => ['--report', `${f}=${join(out, `lint.${f}`)}`]).flat()]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    const outputs = new Map<string, string>([['text', r.stdout], ...FORMATS.slice(1).map((f) => [f, readFileSync(join(out, `lint.${f}`), 'utf8')] as [string, string])]);
    for (const [f, text] of outputs) for (const s of SECRETS) expect(text, `${f} leaks a secret`).not.toContain(s);
    expect(r.stdout).toMatch(/^\.claude\/rules\/deploy\.md:4:9 - error RC6001: .*\n {2}4 \| AWS key AKIA\*{16} for uploads\n/m);
    const sarif = JSON.parse(outputs.get('sarif') as string) as { runs: { results: unknown[] }[] };
    const json = JSON.parse(outputs.get('json') as string) as { diagnostics: unknown[] };
    expect(sarif.runs[0]!.results).toHaveLength(json.diagnostics.length);
  });

  it('lint PATH keeps only the conflict events with a side under PATH', async () => {
    const r = await rulec(['lint', ...common(), '--format', 'json', 'CLAUDE.local.md']);
    const json = JSON.parse(r.stdout) as { diagnostics: { file: string }[]; conflicts: { sides: { source: string }[] }[] };
    expect(json.diagnostics.every((d) => d.file === 'CLAUDE.local.md')).toBe(true);
    expect(json.conflicts.length).toBeGreaterThan(0);
    for (const c of json.conflicts) expect(c.sides.some((s) => s.source === 'CLAUDE.local.md')).toBe(true);
  });
});

// `--report json=/dev/stdout` is a common CI spelling: what is not a regular file is written into,
// never replaced; a link to a file stays a link, and its target gets the report.
describe('--report into what is not a plain file', () => {
  it('writes into a FIFO (a reader gets the report) and leaves it a FIFO', async () => {
    const fifo = join(dir, 'report.fifo');
    execFileSync('mkfifo', [fifo]);
    // Opened for reading first, without blocking, so the writer's open does not wait.
    const fd = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const r = await rulec(['lint', ...common(), '--report', `json=${fifo}`]);
      expect(r.code, r.stderr).toBe(1);
      const got = Buffer.alloc(1 << 20);
      const n = readSync(fd, got);
      expect((JSON.parse(got.subarray(0, n).toString('utf8')) as { diagnostics: unknown[] }).diagnostics.length).toBeGreaterThan(0);
    } finally {
      closeSync(fd);
    }
    expect(lstatSync(fifo).isFIFO()).toBe(true);
  });

  it('replaces a linked file through its link, and refuses a directory', async () => {
    const target = join(dir, 'real-report.json');
    writeFileSync(target, 'old');
    const link = join(dir, 'report-link.json');
    symlinkSync(target, link);
    const r = await rulec(['lint', ...common(), '--report', `json=${link}`]);
    expect(r.code, r.stderr).toBe(1);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(target, 'utf8'))).toHaveProperty('diagnostics');
    const asDir = join(dir, 'a-directory');
    mkdirSync(asDir);
    const d = await rulec(['lint', ...common(), '--report', `json=${asDir}`]);
    expect(d.code).toBe(2);
    expect(d.stderr).toContain(`cannot write report ${asDir}: it is a directory`);
  });
});

describe('--report into this process\'s own streams', () => {
  it('/dev/stdout is stdout, after nothing is lost: the report file and the printed report both arrive', async () => {
    const r = await rulec(['lint', ...common(), '--format', 'text', '--report', 'json=/dev/stdout']);
    expect(r.code).toBe(1);
    const start = r.stdout.indexOf('{');
    expect((JSON.parse(r.stdout.slice(start, r.stdout.lastIndexOf('}\n') + 2)) as { diagnostics: unknown[] }).diagnostics.length).toBeGreaterThan(0);
    expect(r.stdout).toMatch(/Found \d+ errors?/);
  });

  it('through a real process whose stdout is a file, nothing is renamed over it', () => {
    const out = join(dir, 'stdout.txt');
    const fd = openSync(out, 'w');
    try {
      spawnSync(process.execPath, [join(import.meta.dirname, '..', '..', 'dist', 'cli', 'bin.js'), 'lint', ...common(), '--report', 'json=/dev/stdout'], { cwd: repo, stdio: ['ignore', fd, 'ignore'] });
    } finally {
      closeSync(fd);
    }
    const text = readFileSync(out, 'utf8');
    expect(text).toContain('"diagnostics"');
    expect(text).toMatch(/Found \d+ errors?/);
  });
});
