/**
 * helpers/sync-shell.ts: test setup's shell commands through one shell per
 * worker answer as `sh -c` would — stdout, the directory and environment
 * given, a failure thrown with its stderr — and a shell that died is replaced
 * by a spawn per call, not a hang.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { definedEnv } from '../src/source/git-env.js';
import { shSync, syncShellPid } from './helpers/sync-shell.js';

const dir = realpathSync(mkdtempSync(join(tmpdir(), 'rulec-syncsh-')));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const env = (extra: Record<string, string> = {}): Record<string, string> => ({ ...definedEnv(), ...extra });

describe('shSync', () => {
  it('answers with stdout, in the directory and environment given, each call its own', () => {
    expect(shSync('pwd; printf "[%s]" "$RULEC_SYNC_PROBE"', dir, env({ RULEC_SYNC_PROBE: "it's `x` $HOME" }))).toBe(`${dir}\n[it's \`x\` $HOME]`);
    expect(shSync('printf "[%s]" "${RULEC_SYNC_PROBE-unset}"', dir, env())).toBe('[unset]');
  });

  it('throws a failure with its status and stderr, and answers the next call', () => {
    expect(() => shSync('echo bad >&2; exit 3', dir, env())).toThrow(/failed \(3\)[\s\S]*bad/);
    expect(shSync('echo ok', dir, env())).toBe('ok\n');
  });

  it('falls back to a spawn per call once its shell has died', async () => {
    expect(shSync('echo one', dir, env())).toBe('one\n');
    const pid = syncShellPid();
    expect(pid).toBeDefined();
    process.kill(pid as number, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 100));
    expect(shSync('echo two', dir, env())).toBe('two\n');
  });
});
