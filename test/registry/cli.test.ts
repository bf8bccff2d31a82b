/**
 * `rulec registry` and `rulec keys` through their command functions (in
 * process, with a fake Io): help for every subcommand, the story in JSON and
 * text, exit codes (0 done, 1 refused with a code, 2 usage or configuration).
 * One smoke test spawns the built CLI (dist/cli/bin.js).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keysCommand } from '../../src/cli/commands/keys.js';
import { registryCommand } from '../../src/cli/commands/registry/index.js';
import { UsageError } from '../../src/util/errors.js';
import { bucketOf } from '../../src/registry/cohort.js';
import { mintBundle, REPO_ROOT, setup, type Setup } from './helpers.js';

let s: Setup;
let keyFile: string;
let trustFile: string;

async function run(argv: string[], command = registryCommand): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await command(argv, { out: (t) => { out += t; }, err: (t) => { err += t; }, cwd: s.dir });
  return { code, out, err };
}
const WRITERS = new Set(['publish', 'canary', 'ramp', 'promote', 'abort', 'rollback', 'deprecate', 'revoke']);
const reg = (...argv: string[]) => run([...argv, '--store', 'store', '--trust', 'trust-cli.json', ...(WRITERS.has(argv[0] as string) ? ['--key', 'keys/cli.key', '--actor', 'tester'] : [])]);
const jsonOf = async (...argv: string[]) => {
  const r = await reg(...argv, '--format', 'json');
  return { code: r.code, v: JSON.parse(r.out) };
};

beforeAll(async () => {
  s = setup('rulec-cli-');
  const g = await run(['generate', '--out', 'keys/cli.key', '--trust', 'trust-cli.json', '--roles', 'publish,promote,revoke', '--format', 'json'], keysCommand);
  expect(g.code).toBe(0);
  keyFile = join(s.dir, 'keys/cli.key');
  trustFile = join(s.dir, 'trust-cli.json');
});
afterAll(() => rmSync(s.dir, { recursive: true, force: true }));

describe('help', () => {
  const subs = ['publish', 'canary', 'ramp', 'promote', 'abort', 'rollback', 'deprecate', 'revoke', 'admit', 'impact', 'bucket', 'status', 'log', 'verify'];
  it('rulec registry --help lists every subcommand', async () => {
    const r = await run(['--help']);
    expect(r.code).toBe(0);
    for (const n of subs) expect(r.out).toContain(`  ${n} `);
  });
  it.each(subs)('rulec registry %s --help', async (n) => {
    const r = await run([n, '--help']);
    expect([r.code, r.out.startsWith(`Usage: rulec registry ${n}`)]).toEqual([0, true]);
  });
  it('rulec keys --help', async () => {
    expect((await run(['--help'], keysCommand)).out).toContain('Usage: rulec keys generate');
  });
});

describe('keys', () => {
  it('generate writes a 0600 private key, its public key, and the trust file', async () => {
    const trust = JSON.parse(readFileSync(trustFile, 'utf8'));
    const [id] = Object.keys(trust.keys) as [string];
    expect(trust.roles.promote.keys).toEqual([id]);
    expect(readFileSync(keyFile, 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(readFileSync(`${keyFile}.pub`, 'utf8').trim()).toBe(trust.keys[id].public_key);
  });
  it('refuses to overwrite a key and to use an unknown role', async () => {
    await expect(run(['generate', '--out', 'keys/cli.key'], keysCommand)).rejects.toThrow(UsageError);
    await expect(run(['generate', '--out', 'keys/x.key', '--trust', 'trust-cli.json', '--roles', 'admin'], keysCommand)).rejects.toThrow(/unknown role/);
  });
});

describe('the story through the CLI', () => {
  it('publish → canary → bucket → admit → promote → revoke → impact → log → verify', async () => {
    const [a, b] = [mintBundle(s.dir, '2.0.0', 1), mintBundle(s.dir, '2.1.0', 2)];
    expect((await jsonOf('publish', a.dir)).v).toMatchObject({ ok: true, seq: 1, op: { op: 'publish', digest: a.digest, actor: 'tester' } });
    expect((await reg('canary', a.digest.slice(7, 19), '--bps', '10000')).code).toBe(0);
    expect((await jsonOf('promote')).v.channels.stable.promoted).toBe(a.digest);
    const pub = await reg('publish', b.dir);
    expect(pub.out).toMatch(/^published sha256:[0-9a-f]{12} \(b-[0-9a-f]{16} 2\.1\.0\) to stable as draft\n {2}index seq 4, signed by cli; expires /);
    expect((await reg('canary', b.digest, '--bps', '2500', '--salt', 'r1')).code).toBe(0);

    const bucket = await jsonOf('bucket', 'repo:acme/api');
    expect(bucket.v).toMatchObject({ bucket: bucketOf(b.manifest.bundle_id, 'r1', 'repo:acme/api'), bps: 2500, salt: 'r1' });
    const fixed = await run(['bucket', 'repo:acme/api', '--bundle-id', 'agents-core', '--salt', 'r1']);
    expect(fixed.out).toContain('bucket 8364');

    const inside = Array.from({ length: 200 }, (_, i) => `repo:acme/r${i}`).find((x) => bucketOf(b.manifest.bundle_id, 'r1', x) < 2500) as string;
    const admitted = await run(['admit', '--subject', inside, '--run-id', 'run-1', '--store', 'store', '--trust', 'trust-cli.json', '--state', 'admit', '--format', 'json']);
    const pin = JSON.parse(admitted.out);
    expect(pin).toMatchObject({ ok: true, resumed: false, digest: b.digest, path: join(s.dir, 'admit', 'bundles', b.digest.slice(7)), pin: { run: 'run-1', canary: true, channel: 'stable' } });

    const refused = await reg('canary', a.digest, '--bps', '5');
    expect(refused.code).toBe(1);
    expect(refused.out).toContain('error RC7106: channel stable already runs a canary');

    const revoked = await reg('revoke', b.digest, '--severity', 'halt', '--reason', 'leaks a token');
    expect(revoked.out).toContain(`stable serves ${a.digest.slice(0, 19)}`);
    const impact = await run(['impact', b.digest.slice(7, 15), '--store', 'store', '--trust', 'trust-cli.json', '--state', 'admit']);
    expect(impact.out).toMatch(/1 pinned run; revoked \(halt\) at index seq 6: leaks a token\n {2}run-1 {2}repo:acme\/r\d+ {2}stable {2}admitted .* halted at its next check/);
    const check = await run(['admit', '--check', '--run-id', 'run-1', '--store', 'store', '--trust', 'trust-cli.json', '--state', 'admit']);
    expect([check.code, check.out]).toEqual([1, expect.stringContaining('error RC7406')]);

    const log = await reg('log');
    expect(log.out.trim().split('\n').map((l) => l.split(/\s+/)[2])).toEqual(['publish', 'canary', 'promote', 'publish', 'canary', 'revoke']);
    const verified = await jsonOf('verify');
    expect(verified.v).toMatchObject({ ok: true, seq: 6, diagnostics: [] });
    const status = await reg('status');
    expect(status.out).toContain('denylist');
  });
});

describe('exit codes', () => {
  it('bad flags are usage errors: exit 2, one line named after the subcommand, nothing on stdout', async () => {
    const usage = (r: { code: number; out: string; err: string }) => [r.code, r.out, r.err];
    expect(usage(await reg('canary', 'abc', '--bps', '0'))).toEqual([2, '', expect.stringMatching(/^rulec registry canary: --bps must be [^\n]*\n$/)]);
    expect(usage(await reg('revoke', 'abc', '--severity', 'soon', '--reason', 'x'))).toEqual([2, '', expect.stringMatching(/^rulec registry revoke: [^\n]*--severity/)]);
    expect(usage(await reg('status', '--format', 'xml'))).toEqual([2, '', expect.stringMatching(/^rulec registry status: --format/)]);
    expect(usage(await reg('publish', '--kye', 'k'))).toEqual([2, '', 'rulec registry publish: unknown option --kye (did you mean --key?); see --help\n']);
    await expect(run(['nope'])).rejects.toThrow(/unknown subcommand/);
  });
  it('a missing trust file is a usage error that says how to make one', async () => {
    const r = await run(['status', '--store', 'store', '--trust', 'missing.json']);
    expect([r.code, r.err]).toEqual([2, expect.stringMatching(/^rulec registry status: [^\n]*rulec keys generate/)]);
  });
  it('an invalid trust file is a configuration failure (exit 2) with RC7301', async () => {
    writeFileSync(join(s.dir, 'bad-trust.json'), '{"schema":"x"}');
    const r = await run(['status', '--store', 'store', '--trust', 'bad-trust.json']);
    expect(r.code).toBe(2);
    expect(r.out).toContain('error RC7301');
  });
  it('an empty registry refuses with RC7209', async () => {
    const r = await run(['status', '--store', 'empty', '--trust', 'trust-cli.json', '--format', 'json']);
    expect([r.code, JSON.parse(r.out).diagnostics[0].code]).toEqual([1, 'RC7209']);
  });
});

describe('the built CLI', () => {
  it('rulec registry and rulec keys are commands of dist/cli/bin.js', () => {
    const main = join(REPO_ROOT, 'dist', 'cli', 'bin.js');
    const help = execFileSync(process.execPath, [main, '--help'], { encoding: 'utf8' });
    expect(help).toMatch(/ {2}registry +publish, canary/);
    expect(help).toMatch(/ {2}keys +generate/);
    const out = execFileSync(process.execPath, [main, 'registry', 'verify', '--store', join(s.dir, 'store'), '--trust', trustFile], { encoding: 'utf8' });
    expect(out).toContain('verified — index seq 6');
  });
});
