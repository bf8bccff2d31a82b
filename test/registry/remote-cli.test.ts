/**
 * The organisation setup through `rulec registry` (in process): publishers on
 * a git remote (--store git+PATH to a bare repository), a mirror to an OCI
 * registry (rulec registry mirror --to), runtimes admitting from it (admit
 * --from), refresh; and the exit codes of the remote stores' refusals.
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keysCommand } from '../../src/cli/commands/keys.js';
import { registryCommand } from '../../src/cli/commands/registry/index.js';
import { mintBundle, setup, type Setup } from './helpers.js';
import { REGISTRY_MISSING, startRegistry, type RunningRegistry } from './oci-registry.js';
import { bareRepository } from '../helpers/fixture-repo.js';

let s: Setup;
let reg: RunningRegistry | undefined;
let remote: string;

async function run(argv: string[], command = registryCommand): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await command(argv, { out: (t) => { out += t; }, err: (t) => { out += t; }, cwd: s.dir });
  return { code, out };
}
const signed = ['--trust', 'trust.json', '--key', 'keys/release.key', '--actor', 'alice'];
const git = (...argv: string[]) => run([...argv, '--store', 'git+registry.git', ...signed]);

let savedCacheDir: string | undefined;
beforeAll(async () => {
  s = setup('rulec-remote-cli-');
  savedCacheDir = process.env.RULEC_CACHE_DIR;
  process.env.RULEC_CACHE_DIR = join(s.dir, 'cache');
  remote = join(s.dir, 'registry.git');
  bareRepository(remote);
  expect((await run(['generate', '--out', 'keys/release.key', '--trust', 'trust.json', '--roles', 'publish,promote,revoke'], keysCommand)).code).toBe(0);
  if (!REGISTRY_MISSING) reg = await startRegistry();
});
afterAll(async () => {
  if (savedCacheDir === undefined) delete process.env.RULEC_CACHE_DIR;
  else process.env.RULEC_CACHE_DIR = savedCacheDir;
  await reg?.stop();
  rmSync(s.dir, { recursive: true, force: true });
});

describe('publishers on a git remote', () => {
  it('publish → canary → promote on git+PATH; status and verify read it back', async () => {
    const b = mintBundle(s.dir, '1.0.0', 1);
    expect(await git('publish', b.dir)).toMatchObject({ code: 0, out: expect.stringContaining('index seq 1, signed by release') });
    expect((await git('canary', b.digest.slice(7, 19), '--bps', '10000')).code).toBe(0);
    expect((await git('promote')).code).toBe(0);
    const status = await run(['status', '--store', 'git+registry.git', '--trust', 'trust.json']);
    expect(status.out).toContain(`registry git+${remote}: index seq 3 (promote by alice`);
    expect(status.out).toContain(`promoted    ${b.digest.slice(0, 19)}`);
    const verify = await run(['verify', '--store', 'git+registry.git', '--trust', 'trust.json']);
    expect([verify.code, verify.out]).toEqual([0, expect.stringContaining(`registry git+${remote}: verified — index seq 3`)]);
    expect(execFileSync('git', ['--git-dir', remote, 'for-each-ref', '--format=%(refname)']).toString()).toBe('refs/rulec/registry\n');
  });

  it('refresh re-signs the latest index (seq 4) and changes nothing', async () => {
    const r = await git('refresh', '--expires-in', '60d');
    expect([r.code, r.out]).toEqual([0, expect.stringMatching(/^refreshed the index \(nothing changed\)\n {2}index seq 4, signed by release; expires /)]);
  });

  it('an unreachable git remote is RC7601 (exit 1)', async () => {
    const r = await run(['status', '--store', 'git+no-such.git', '--trust', 'trust.json']);
    expect([r.code, r.out]).toEqual([1, expect.stringContaining('error RC7601: cannot read git+')]);
  });
});

describe.skipIf(REGISTRY_MISSING !== null)('runtimes admitting from an OCI mirror', () => {
  it('mirror --to, then admit --from: the digest the channel serves, from a fresh index', async () => {
    const to = (reg as RunningRegistry).spec('acme/agent-rules');
    const m = await run(['mirror', '--to', to, '--store', 'git+registry.git', '--trust', 'trust.json']);
    expect([m.code, m.out]).toEqual([0, expect.stringContaining(`mirrored index seq 4 of git+${remote} to ${to}\n  bundles  stable promoted sha256:`)]);
    expect(m.out).toContain('index artifacts (seq 1–4)');
    const a = await run(['admit', '--from', to, '--trust', 'trust.json', '--subject', 'repo:acme/api', '--run-id', 'run-1', '--state', 'admit', '--format', 'json']);
    expect(a.code).toBe(0);
    expect(JSON.parse(a.out)).toMatchObject({ ok: true, resumed: false, pin: { run: 'run-1', index_seq: 4, channel: 'stable' } });
    const again = await run(['mirror', '--to', to, '--store', 'git+registry.git', '--trust', 'trust.json', '--format', 'json']);
    expect(JSON.parse(again.out)).toMatchObject({ ok: true, seq: 4, from: 4, pushed: { blobs: 0, bundles: 0, indexes: 0 } });
  });

  it('a mirror refuses writes (RC7614) and an unknown channel (RC7112)', async () => {
    const to = (reg as RunningRegistry).spec('acme/agent-rules');
    expect(await run(['promote', '--store', to, ...signed])).toMatchObject({ code: 1, out: expect.stringContaining('RC7614') });
    expect(await run(['mirror', '--to', to, '--channel', 'beta', '--store', 'git+registry.git', '--trust', 'trust.json'])).toMatchObject({ code: 1, out: expect.stringContaining('RC7112') });
  });
});

describe('flags', () => {
  it('plain HTTP to a host off this machine is RC7613; --from with --store and mirror without --to are usage errors', async () => {
    const r = await run(['admit', '--from', 'oci+http://registry.example.com/acme/rules', '--trust', 'trust.json']);
    expect([r.code, r.out]).toEqual([1, expect.stringContaining('error RC7613: oci+http://registry.example.com/acme/rules: plain HTTP')]);
    expect(await run(['admit', '--from', 'oci://ghcr.io/acme/rules', '--store', 'x', '--trust', 'trust.json'])).toEqual({ code: 2, out: expect.stringMatching(/^rulec registry admit: /) });
    expect(await run(['mirror', '--trust', 'trust.json'])).toEqual({ code: 2, out: expect.stringMatching(/^rulec registry mirror: /) });
  });

  it('mirror and refresh have help, and are listed', async () => {
    expect((await run(['--help'])).out).toMatch(/ {2}refresh {4}re-sign[^\n]*\n {2}mirror {5}copy the signed index/);
    for (const n of ['mirror', 'refresh']) expect((await run([n, '--help'])).out).toMatch(new RegExp(`^Usage: rulec registry ${n}`));
  });
});
