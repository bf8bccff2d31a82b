/**
 * No detected secret leaves rulec (issue #8.5, #10.4, #10.11). One credential
 * of every kind is planted where it reaches the most surfaces (see
 * secret-fixture.ts); then every output format of every command, and every
 * bundle file but the rendered context, is searched for any 12 consecutive
 * characters of any secret, case-insensitively. The only exceptions are the
 * rendered context itself (context/*.md, `explain --text`), which is the
 * agent's input, and the source blobs it is rendered from (sources/) — and `explain --text` must then say on stderr that it
 * prints secrets. Runs the built CLI (`npm run build` first).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { runCli } from '../helpers/run-cli.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.js';
import { topicsFor } from '../../src/conflicts/topics-for.js';
import { redactDeep } from '../../src/diagnostics/redact.js';
import { materialiseTree, type Materialised } from '../helpers/fixture-repo.js';
import { leakIn, PERMISSIVE_POLICY, PLANTED, writeSecretTree } from './secret-fixture.js';

/** The CLI in-process (test/helpers/run-cli.ts): every output surface of a command, without a spawn. */
function rulec(args: string[], cwd: string) {
  return runCli(args, cwd);
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((f) => join(dir, f)).filter((f) => statSync(f).isFile());
}

const made: string[] = [];
function repo(policy?: string): Materialised {
  const src = writeSecretTree(policy);
  const m = materialiseTree(src);
  rmSync(src, { recursive: true, force: true });
  made.push(m.dir);
  return m;
}
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

describe('the planted fixture', () => {
  it('has every secret detected, and the secrets really reach the context', async () => {
    const m = repo(PERMISSIVE_POLICY);
    const result = await compile({ repoDir: m.repo, outDir: join(m.dir, 'out') });
    const codes = new Set(result.diagnostics.map((d) => d.code));
    for (const x of PLANTED) expect(codes, `${x.code} not detected`).toContain(x.code);
    expect(codes).toContain('RC4002');
    expect(codes).toContain('RC6201');
    expect(result.manifest.conflicts as unknown[]).not.toHaveLength(0);
    // The test can fail: without redaction the context holds every secret.
    expect(leakIn(result.variants.map((v) => v.text).join('\n'))).not.toBeNull();
    for (const x of PLANTED) {
      expect(result.variants.some((v) => v.text.includes(x.secret.split('\n')[0]!)), x.code).toBe(true);
    }
  });

  it('compile(): diagnostics, conflict events, topic rulings and the manifest hold no secret', async () => {
    const m = repo(PERMISSIVE_POLICY);
    const result = await compile({ repoDir: m.repo, outDir: join(m.dir, 'out') });
    expect(leakIn(JSON.stringify(result.diagnostics))).toBeNull();
    expect(leakIn(JSON.stringify(result.conflicts.value))).toBeNull();
    expect(leakIn(JSON.stringify(result.conflicts.diagnostics))).toBeNull();
    // Topic rulings are asked of the resolution (topicsFor), which holds the text as read: a caller masks them with the result's redactions.
    expect(leakIn(JSON.stringify(result.variants.map((v) => redactDeep(topicsFor(result.resolution, result.policy, v.id), result.redactions))))).toBeNull();
    expect(leakIn(JSON.stringify(result.manifest))).toBeNull();
    // Masks keep the public prefix, so a reader still sees what was hidden.
    expect(JSON.stringify(result.diagnostics)).toContain('ghp_****');
  });
});

describe('every CLI output and bundle file', () => {
  let m: Materialised;
  let bundleDir: string;
  beforeAll(async () => {
    m = repo(PERMISSIVE_POLICY);
    const built = await rulec(['build'], m.repo);
    expect(built.code, built.stderr).toBe(0);
    bundleDir = join(m.repo, 'bundles', readFileSync(join(m.repo, 'bundles', 'current'), 'utf8').trim());
  });

  const commands: [string, string[]][] = [
    ['lint', ['lint']],
    ['lint --format json', ['lint', '--format', 'json']],
    ['build --check', ['build', '--check']],
    ['build --format json --check', ['build', '--format', 'json', '--check']],
    ['explain (bundle)', ['explain', 'sub/src/main.ts']],
    ['explain --format json (bundle)', ['explain', 'sub/src/main.ts', '--format', 'json']],
    ['explain --fresh', ['explain', 'sub/src/main.ts', '--fresh']],
    ['explain --fresh --format json', ['explain', 'sub/src/main.ts', '--fresh', '--format', 'json']],
    ['explain --profile codex', ['explain', 'sub/src/main.ts', '--profile', 'codex']],
    ['explain --profile claude-code --format json', ['explain', 'sub/src/main.ts', '--profile', 'claude-code', '--format', 'json']],
  ];
  it.each(commands)('%s prints no secret', async (_name, args) => {
    const r = await rulec(args, m.repo);
    expect(r.code, r.stderr).not.toBe(2);
    expect(leakIn(r.stdout), r.stdout).toBeNull();
    expect(leakIn(r.stderr), r.stderr).toBeNull();
  });

  // Every report format (src/report/reporters), on stdout and in --report files, for lint and build.
  it.each([['lint', ['lint']], ['build --check', ['build', '--check']]] as const)('%s in every report format holds no secret', async (name, args) => {
    const formats = ['json', 'markdown', 'sarif', 'github', 'html'];
    const dir = join(m.dir, `reports-${name.replace(/\W+/g, '-')}`);
    const r = await rulec([...args, '--format', 'text', ...formats.flatMap((f) => ['--report', `${f}=${join(dir, `report.${f}`)}`])], m.repo);
    expect(r.code, r.stderr).not.toBe(2);
    expect(leakIn(r.stdout), r.stdout).toBeNull();
    for (const f of formats) {
      const text = readFileSync(join(dir, `report.${f}`), 'utf8');
      expect(leakIn(text), `${name} --report ${f}`).toBeNull();
    }
  });

  it('text reports show the masks where the secrets were', async () => {
    const r = await rulec(['lint'], m.repo);
    expect(r.stdout).toMatch(/\| .*ghp_\*{36}/);
    expect(r.stdout).toContain('AKIA****');
  });

  it('no bundle file but the rendered context holds a secret', () => {
    const files = filesUnder(bundleDir);
    expect(files.map((f) => relative(bundleDir, f))).toContain('manifest.json');
    for (const f of files) {
      const rel = relative(bundleDir, f);
      const leak = leakIn(readFileSync(f, 'utf8'));
      // sources/ holds the raw bytes the context is rendered from (for rulec diff), like the context itself.
      if (rel.startsWith('context/') || rel.startsWith('attachments/') || rel.startsWith('sources/')) continue;
      expect(leak, rel).toBeNull();
    }
    expect(files.some((f) => relative(bundleDir, f).startsWith('context/') && leakIn(readFileSync(f, 'utf8')) !== null)).toBe(true);
  });

  const contexts: [string, string[]][] = [
    ['explain --text', ['explain', 'sub/src/main.ts', '--text']],
    ['explain --text --fresh', ['explain', 'sub/src/main.ts', '--text', '--fresh']],
    ['explain --format json --text', ['explain', 'sub/src/main.ts', '--format', 'json', '--text']],
    ['explain --profile claude-code --text', ['explain', 'sub/src/main.ts', '--profile', 'claude-code', '--text']],
    ['explain --profile codex --format json --text', ['explain', 'sub/src/main.ts', '--profile', 'codex', '--format', 'json', '--text']],
  ];
  it.each(contexts)('%s prints the context as the agent gets it, and warns on stderr', async (_name, args) => {
    const r = await rulec(args, m.repo);
    expect(r.code).toBe(0);
    expect(leakIn(r.stdout)).not.toBeNull();
    expect(r.stderr).toMatch(/warning: this context holds \d+ detected secrets? \(RC60\d\d /);
    expect(leakIn(r.stderr)).toBeNull();
  });
});

describe('with secrets as errors (the default policy)', () => {
  it('nothing is written, and no output carries a secret', async () => {
    const m = repo();
    for (const args of [['build'], ['build', '--format', 'json'], ['explain', 'sub', '--format', 'json']]) {
      const r = await rulec(args, m.repo);
      expect(leakIn(r.stdout + r.stderr), args.join(' ')).toBeNull();
      if (args[0] === 'build') expect(r.code).toBe(1);
    }
    expect(() => readdirSync(join(m.repo, 'bundles'))).toThrow();
  });
});

// A secret in a file's path as well as in its text (a rule named after a token, an imported file
// too): a bundle could list that path only with the secret, or masked and then wrong, so the build
// refuses it (RC1012); the library's manifest masks its keys like its values.
describe('a secret that is also a path', () => {
  const token = `ghp_${'Zq7Xw2Vb9Nm4Lk8Jh3Gf6Ds1Ap5Oi0Uy7Tr2E'.slice(0, 36)}`;
  let m: Materialised;
  beforeAll(() => {
    const src = mkdtempSync(join(tmpdir(), 'rulec-secret-path-'));
    const put = (rel: string, text: string): void => {
      mkdirSync(dirname(join(src, rel)), { recursive: true });
      writeFileSync(join(src, rel), text);
    };
    put('AGENTS.md', `# Root\n\nSee @docs/${token}.md for the deploy notes.\n`);
    put(`docs/${token}.md`, `# Deploy\n\nThe deploy token is ${token}.\n`);
    put(`.claude/rules/${token}.md`, `---\npaths: ["lib/**"]\n---\nCI token: ${token}\n`);
    put('.rulec/policy.yaml', 'version: 1\nseverity:\n  RC6003: warning\n');
    put('src/a.ts', 'x\n');
    put('lib/b.ts', 'y\n');
    m = materialiseTree(src);
    rmSync(src, { recursive: true, force: true });
    made.push(m.dir);
  });

  it('is an RC1012 error at each such path, shown masked; no bundle is written, and nothing prints the secret', async () => {
    const secret = token.slice(4);
    const built = await rulec(['build'], m.repo);
    expect(built.code, built.stderr).toBe(1);
    expect(built.stdout).toContain(`.claude/rules/ghp_${'*'.repeat(36)}.md:1:1 - error RC1012: this path holds a detected secret`);
    expect(built.stdout).toContain(`docs/ghp_${'*'.repeat(36)}.md:1:1 - error RC1012`);
    expect(existsSync(join(m.repo, 'bundles'))).toBe(false);
    expect(built.stdout + built.stderr).not.toContain(secret.slice(0, 12));
    for (const args of [['lint', '--format', 'json'], ['explain', 'src/a.ts', '--fresh'], ['explain', 'lib/b.ts', '--fresh', '--format', 'json']]) {
      const r = await rulec(args, m.repo);
      expect(r.stdout + r.stderr, args.join(' ')).not.toContain(secret.slice(0, 12));
    }
    // The library's result masks it too: the manifest's keys, like its values.
    const result = await compile({ repoDir: m.repo, outDir: join(m.dir, 'out') });
    expect(JSON.stringify(result.manifest)).not.toContain(secret.slice(0, 12));
    expect(Object.keys(result.manifest.files)).toContain(`.claude/rules/ghp_${'*'.repeat(36)}.md`);
  });
});
