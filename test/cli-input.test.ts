/**
 * Input validation (#8.13, #10.5, #10.9): every wrong question gets a clear
 * answer. Bad flags and bad policy values are usage or configuration errors
 * (exit 2) naming what is wrong and what is valid — never "internal error … a
 * bug in rulec"; a path outside the repository is refused; a path that does
 * not exist is said to be so. Commands are called in-process (fast); a few
 * rows run the built CLI to check the exit code mapping.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildCommand } from '../src/cli/commands/build.js';
import { explainCommand } from '../src/cli/commands/explain.js';
import { lintCommand } from '../src/cli/commands/lint.js';
import { commitAll, makeTree, remove, type Made } from './security/tree.js';
import { runCli } from './helpers/run-cli.js';

const CLI = join(import.meta.dirname, '..', 'dist', 'cli', 'bin.js');
const made: Made[] = [];
afterAll(() => made.forEach(remove));

function repo(extra: Record<string, string> = {}): Made {
  const m = makeTree({ 'AGENTS.md': '# Root\n\nBe precise.\n', 'src/a.ts': 'x\n', 'empty/AGENTS.md': '', ...extra });
  made.push(m);
  return m;
}

async function run(cmd: typeof lintCommand, argv: string[], cwd: string): Promise<{ code: number | null; out: string; error: string }> {
  const chunks: string[] = [];
  const io = { out: (t: string) => void chunks.push(t), err: (t: string) => void chunks.push(t), cwd };
  try {
    return { code: await cmd(argv, io), out: chunks.join(''), error: '' };
  } catch (e) {
    return { code: null, out: chunks.join(''), error: `${(e as Error).name}: ${(e as Error).message}` };
  }
}

describe('explain --profile --option', () => {
  const m = repo();
  it.each<[string[], RegExp]>([
    [['--profile', 'codex', '--option', 'bogus=1'], /UsageError: --option bogus: unknown option; valid options for codex: project_doc_max_bytes \(integer ≥ 0\), fallback_filenames \(list of strings\), project_root_markers/],
    [['--profile', 'codex', '--option', 'project_doc_max_bytes=-1'], /UsageError: --option project_doc_max_bytes=-1: expected integer ≥ 0/],
    [['--profile', 'codex', '--option', 'project_doc_max_bytes=1e999'], /UsageError: --option project_doc_max_bytes=1e999: expected integer ≥ 0/],
    [['--profile', 'codex', '--option', 'project_doc_max_bytes=ten'], /UsageError: --option project_doc_max_bytes=ten: expected integer/],
    [['--profile', 'claude-code', '--option', 'approve_external_imports=yes'], /expected true or false; valid options for claude-code: approve_external_imports/],
    [['--profile', 'gemini-cli', '--option', 'context_file_names=[]'], /expected string or list of strings/],
    [['--profile', 'cursor', '--option', 'x=1'], /UsageError: --option x: unknown option; cursor has no options/],
    [['--profile', 'codex', '--option', '__proto__={"a":1}'], /UsageError: --option __proto__: unknown option/],
    [['--profile', 'codex', '--option', 'toString=1'], /UsageError: --option toString: unknown option/],
    [['--profile', 'codex', '--option', 'novalue'], /UsageError: --option expects key=value/],
    // Without a profile an option set nothing, in silence.
    [['--option', 'project_doc_max_bytes=10'], /UsageError: --option sets an agent profile's option: it needs --profile NAME/],
  ])('%j is refused', async (args, expected) => {
    expect((await run(explainCommand, ['.', ...args], m.repo)).error).toMatch(expected);
  });

  it('build --revision "" is refused (it used to record 0.1.0 in silence), as every empty option value is', async () => {
    expect((await run(buildCommand, ['--revision', '', '--out', join(m.dir, 'out-rev')], m.repo)).error).toMatch(/UsageError: --revision needs a value/);
  });

  it('valid options are accepted', async () => {
    const r = await run(explainCommand, ['.', '--profile', 'codex', '--option', 'project_doc_max_bytes=10', '--option', 'fallback_filenames=["README.md"]'], m.repo);
    expect(r.code).toBe(0);
    expect(r.out).toContain('budget: 10 of 10 bytes');
  });
});

describe('paths outside or missing', () => {
  const m = repo();
  it.each([['../../etc/passwd'], ['/etc/passwd'], ['..'], ['src/../../x']])('explain %s is refused as outside the repository', async (p) => {
    for (const extra of [[], ['--profile', 'claude-code'], ['--format', 'json']]) {
      expect((await run(explainCommand, [p, ...extra], m.repo)).error).toMatch(/^UsageError: .* is outside the repository .*; rulec answers only for paths inside it$/);
    }
  });

  it('explain of a missing path says so, and still shows what a new file there would get', async () => {
    const text = await run(explainCommand, ['does/not/exist.ts', '--fresh'], m.repo);
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/^does\/not\/exist\.ts\n {2}not in the repository: this is what a new file at this path would get\n {2}variant v-/);
    const json = JSON.parse((await run(explainCommand, ['does/not/exist.ts', '--fresh', '--format', 'json'], m.repo)).out) as { in_repository: boolean; sources: { id: string }[] };
    expect(json.in_repository).toBe(false);
    expect(json.sources.map((s) => s.id)).toEqual(['AGENTS.md']);
    const present = JSON.parse((await run(explainCommand, ['src/a.ts', '--fresh', '--format', 'json'], m.repo)).out) as { in_repository: boolean };
    expect(present.in_repository).toBe(true);
  });

  it('lint of a missing path is an error (RC1008), not "No problems found"; a path outside is refused', async () => {
    const r = await run(lintCommand, ['nonexistent', '--format', 'json'], m.repo);
    expect(r.code).toBe(1);
    expect((JSON.parse(r.out) as { diagnostics: { code: string; file: string }[] }).diagnostics.map((d) => [d.code, d.file])).toEqual([['RC1008', 'nonexistent']]);
    expect((await run(lintCommand, ['src'], m.repo)).out).toContain('No problems found.');
    expect((await run(lintCommand, ['../outside'], m.repo)).error).toMatch(/^UsageError: \.\.\/outside is outside the repository/);
  });
});

describe('--severity CODE=LEVEL', () => {
  const m = repo();
  it.each<[string, RegExp]>([
    ['RC9999=off', /no such diagnostic code "RC9999"/],
    ['RC6501=loud', /RC6501: level must be one of error, warning, info, off, got "loud"/],
    ['RC6501', /--severity expects CODE=LEVEL/],
    ['RC3201=warning', /RC3201: a violation of an enforced managed rule is always an error/],
    ['toString=off', /no such diagnostic code "toString"/],
  ])('%s is refused', async (flag, expected) => {
    for (const cmd of [lintCommand, buildCommand]) expect((await run(cmd, ['--severity', flag], m.repo)).error).toMatch(expected);
  });

  it('changes severities for one run of lint and build, case-insensitively and repeatably', async () => {
    const base = JSON.parse((await run(lintCommand, ['--format', 'json'], m.repo)).out) as { diagnostics: { code: string; severity: string }[] };
    expect(base.diagnostics.filter((d) => d.code === 'RC6501').map((d) => d.severity)).toEqual(['warning']);
    const raised = await run(lintCommand, ['--format', 'json', '--severity', 'rc6501=ERROR', '--severity', 'RC1004=off'], m.repo);
    expect(raised.code).toBe(1);
    expect((JSON.parse(raised.out) as { diagnostics: { code: string; severity: string }[] }).diagnostics.filter((d) => d.code === 'RC6501').map((d) => d.severity)).toEqual(['error']);
    const built = await run(buildCommand, ['--severity', 'RC6501=error', '--out', join(m.dir, 'out')], m.repo);
    expect(built.code).toBe(1);
    expect(built.out).toContain('not written  errors found');
    expect((await run(buildCommand, ['--severity', 'RC6501=off', '--out', join(m.dir, 'out'), '--format', 'json'], m.repo)).code).toBe(0);
  });
});

describe('configuration errors are exit 2 with a message, never an internal error', () => {
  const cli = (args: string[], cwd: string) => spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  const errorText = (e: unknown): string => {
    const d = (e as { diagnostics?: { file: string; range: { start: { line: number; col: number } }; code: string; message: string }[] }).diagnostics ?? [];
    return `${(e as Error).name}: ${(e as Error).message}\n${d.map((x) => `${x.file}:${x.range.start.line}:${x.range.start.col} ${x.code}: ${x.message}`).join('\n')}`;
  };

  it.each<[string, string, RegExp]>([
    ['an infinite number', 'version: 1\ndiscover: { max_file_bytes: .inf }\n', /policy\.yaml:2:13 RC4001: discover\.max_file_bytes must be a whole number below 2\^53, got Infinity/],
    ['a number past 2^53', 'version: 1\nbudgets: { variant_tokens: 1e400 }\n', /RC4001: budgets\.variant_tokens must be a whole number below 2\^53/],
    ['an infinite profile option', 'version: 1\nprofiles: { codex: { project_doc_max_bytes: .inf } }\n', /RC4001: profiles\.codex\.project_doc_max_bytes must be a whole number/],
    ['an unknown code under severity', 'version: 1\nseverity: { RC9999: "off" }\n', /policy\.yaml:2:13 RC4001: severity\.RC9999: no such diagnostic code/],
    ['a malformed exclude glob', 'version: 1\ndiscover: { exclude: ["docs/**", "[abc"] }\n', /policy\.yaml:2:34 RC4001: discover\.exclude\[1\] "\[abc" is not a valid glob/],
    ['an alias bomb', `version: 1\na: &a [${'x,'.repeat(9)}x]\nb: &b [${'*a,'.repeat(9)}*a]\nc: &c [${'*b,'.repeat(9)}*b]\nd: [${'*c,'.repeat(9)}*c]\n`, /policy\.yaml:5:26 RC4001: alias \*c makes the policy more than 10000 values/],
    ['a __proto__ key under severity', 'version: 1\nseverity: {__proto__: {RC6003: "off"}}\n', /policy\.yaml:2:12 RC4001: severity\.__proto__ must be one of/],
    ['a __proto__ key', 'version: 1\nbudgets: {__proto__: {variant_tokens: 1}}\n', /policy\.yaml:2:11 RC4001: unknown key "__proto__" in budgets/],
    ['a set for a section', 'version: 1\nbudgets: !!set {}\n', /policy\.yaml:2:16 RC4001: budgets is tagged !!set: a policy holds only plain mappings, lists and scalars/],
  ])('%s in the policy is an invalid policy (exit 2)', async (_what, policy, expected) => {
    const m = repo({ '.rulec/policy.yaml': policy });
    for (const cmd of [buildCommand, lintCommand]) {
      const chunks: string[] = [];
      const err = await cmd(['--out', join(m.dir, 'out')].slice(cmd === buildCommand ? 0 : 2), { out: (t) => void chunks.push(t), err: (t) => void chunks.push(t), cwd: m.repo })
        .then(() => null, (e: unknown) => e);
      expect(errorText(err)).toMatch(/^UsageError: invalid policy/); // a PolicyError: the CLI prints its findings, exit 2
      expect(errorText(err)).toMatch(expected);
    }
  });

  // explain used to fall back to the built-in policy without a word (exit 0).
  it.each([['--profile', 'codex'], ['--fresh']])('explain PATH %s with an invalid policy is exit 2 with its findings', async (...flags) => {
    const m = repo({ '.rulec/policy.yaml': 'version: 1\ndiscover: { max_file_bytes: .inf }\n' });
    const chunks: string[] = [];
    const err = await explainCommand(['README.md', ...flags], { out: (t) => void chunks.push(t), err: (t) => void chunks.push(t), cwd: m.repo }).then(() => null, (e: unknown) => e);
    expect(errorText(err)).toMatch(/^UsageError: invalid policy/);
    expect(errorText(err)).toMatch(/policy\.yaml:2:13 RC4001: discover\.max_file_bytes must be a whole number/);
  });

  it('through the CLI: an invalid policy prints its findings and exits 2', () => {
    const m = repo({ '.rulec/policy.yaml': 'version: 1\ndiscover: { max_file_bytes: .inf }\n' });
    const r = cli(['lint'], m.repo);
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/policy\.yaml:2:13 - error RC4001: discover\.max_file_bytes must be a whole number below 2\^53, got Infinity/);
    expect(r.stderr).not.toMatch(/internal error|RC9001|    at /);
  });

  // Without their check these never end: the process grows to the heap limit and dies (exit 134).
  it.each<[string, string, string]>([
    ['a mapping', 'version: 1\nseverity: &a {x: *a}\n', '.rulec/policy.yaml:2:18 - error RC4001: severity.x: alias *a refers to a value that contains it'],
    ['a list', 'version: 1\nseverity: &a [*a]\n', '.rulec/policy.yaml:2:15 - error RC4001: severity[0]: alias *a refers to a value that contains it'],
  ])('through the CLI: %s that contains itself is an invalid policy at its alias, exit 2', async (_what, policy, expected) => {
    const m = repo();
    writeFileSync(join(m.dir, 'policy.yaml'), policy);
    mkdirSync(join(m.repo, '.rulec'));
    writeFileSync(join(m.repo, '.rulec', 'policy.yaml'), policy);
    commitAll(m.repo);
    // One real process first, with a time limit: a regression would hang it, not this test's worker.
    const r = spawnSync(process.execPath, [CLI, 'lint'], { cwd: m.repo, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 20_000 });
    expect(r.status, `lint: ${r.stderr}`).toBe(2);
    expect(r.stderr).toContain(expected);
    expect(r.stderr).not.toMatch(/internal error|RC9001|    at /);
    // Then the other ways in, in process: the commit's tree (check) and --policy FILE (build).
    for (const args of [['check', '--base', 'HEAD~1'], ['build', '--policy', join(m.dir, 'policy.yaml')]]) {
      const c = await runCli(args, m.repo);
      expect(c.code, `${args.join(' ')}: ${c.stderr}`).toBe(2);
      expect(c.stderr).toContain(args[0] === 'build' ? expected.replace('.rulec/policy.yaml', join(m.dir, 'policy.yaml')) : expected);
      expect(c.stderr).not.toMatch(/internal error|RC9001|    at /);
    }
  });

  it.each<[string, (m: Made) => string, RegExp]>([
    ['a file', (m) => { writeFileSync(join(m.dir, 'file'), 'x'); return join(m.dir, 'file'); }, /^UsageError: --out must name a directory; .*file is a file$/],
    ['below a file', (m) => { writeFileSync(join(m.dir, 'f2'), 'x'); return join(m.dir, 'f2', 'sub'); }, /^UsageError: cannot write the bundle to .*f2\/sub: a file is in the way/],
    ['under /proc (where a recursive mkdir never returns)', () => '/proc/rulec-no-such/x', /^UsageError: cannot write the bundle to \/proc\/rulec-no-such\/x: /],
  ])('--out at %s is a usage error', async (_what, out, expected) => {
    const m = repo();
    expect((await run(buildCommand, ['--out', out(m)], m.repo)).error).toMatch(expected);
  });

  it('through the CLI: --out below a file exits 2 with the message', () => {
    const m = repo();
    writeFileSync(join(m.dir, 'f3'), 'x');
    const r = cli(['build', '--out', join(m.dir, 'f3', 'x')], m.repo);
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/^rulec build: cannot write the bundle to .*f3\/x: a file is in the way/);
  });

  it('a command named like an Object.prototype property is an unknown command', () => {
    for (const name of ['toString', '__proto__']) {
      const r = cli([name], '/');
      expect(r.status).toBe(2);
      expect(r.stderr).toContain(`unknown command "${name}"`);
    }
  });
});
