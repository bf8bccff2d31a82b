/**
 * The git store beyond the Store contract: the audit log across its 64 KiB
 * chunks, a scratch repository that never touches the user's repository (even
 * with GIT_DIR set around it), a ref that is not a rulec store (RC7201), and
 * the leftovers of a killed writer in the scratch.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GitStore } from '../../src/registry/stores/git.js';
import { AUDIT_CHUNK } from '../../src/registry/stores/git-layout.js';
import { bareRepository } from '../helpers/fixture-repo.js';

const root = mkdtempSync(join(tmpdir(), 'rulec-git-store-'));
const stores: GitStore[] = [];
afterAll(() => {
  for (const s of stores) s.close();
  rmSync(root, { recursive: true, force: true });
});

function fresh(name: string): { remote: string; store: (cache?: string) => GitStore } {
  const remote = join(root, `${name}.git`);
  bareRepository(remote);
  return {
    remote,
    store: (cache = name) => {
      const s = new GitStore(`git+${remote}`, { cacheDir: join(root, `cache-${cache}`) });
      stores.push(s);
      return s;
    },
  };
}

const git = (dir: string, ...args: string[]) => execFileSync('git', ['-C', dir, ...args], { env: { ...process.env, GIT_DIR: undefined } as NodeJS.ProcessEnv }).toString();

describe('the audit log in chunks', () => {
  it('reads back whole and from any offset across chunks, and cuts a torn tail that spans two', async () => {
    const r = fresh('chunks');
    const s = r.store();
    await s.init();
    const line = (c: string, n: number) => `${c.repeat(n - 1)}\n`;
    const lines = [line('a', 40_000), line('b', 40_000), line('c', 40_000), line('d', 40_000)];
    let size = 0;
    for (const [i, l] of lines.entries()) {
      expect(await s.casIndex(i, { bytes: `index ${i + 1}`, audit: l, auditAt: size })).toBe(true);
      size += l.length;
    }
    const whole = lines.join('');
    const other = r.store('reader');
    expect((await other.latestIndex())?.seq).toBe(4);
    expect((await other.readAudit(0)).bytes.toString()).toBe(whole);
    for (const from of [1, AUDIT_CHUNK - 1, AUDIT_CHUNK, AUDIT_CHUNK + 1, 2 * AUDIT_CHUNK + 7, size]) {
      expect((await other.readAudit(from)).bytes.toString(), `from ${from}`).toBe(whole.slice(from));
    }
    // A torn line written after line 2 (80 000 bytes) runs past the first chunk boundary; keeping 80 000 bytes cuts it.
    const r2 = fresh('torn');
    const t = r2.store();
    await t.init();
    await t.appendAudit(0, `${lines[0]}${lines[1]}${'x'.repeat(60_000)}`);
    await t.appendAudit(80_000, line('e', 10));
    expect((await r2.store('reader').readAudit(0)).bytes.toString()).toBe(`${lines[0]}${lines[1]}${line('e', 10)}`);
    expect(git(r2.remote, 'ls-tree', '--name-only', 'refs/rulec/registry', 'audit/')).toBe('audit/000000.log\naudit/000001.log\n');
  });
});

describe('the scratch repository', () => {
  it('is private: the user\'s repository is never read or written, even with GIT_DIR set', async () => {
    const user = join(root, 'user-repo');
    mkdirSync(user);
    git(user, 'init', '--quiet');
    writeFileSync(join(user, 'AGENTS.md'), '# rules\n');
    git(user, 'add', 'AGENTS.md');
    const before = [git(user, 'status', '--porcelain'), git(user, 'for-each-ref')];
    const saved = { GIT_DIR: process.env.GIT_DIR, GIT_INDEX_FILE: process.env.GIT_INDEX_FILE };
    process.env.GIT_DIR = join(user, '.git');
    process.env.GIT_INDEX_FILE = join(user, '.git', 'index');
    try {
      const r = fresh('private');
      const s = new GitStore(`git+${r.remote}`, { cwd: user, cacheDir: join(root, 'cache-private') });
      stores.push(s);
      await s.init();
      expect(await s.casIndex(0, { bytes: 'one', audit: 'a\n', auditAt: 0 })).toBe(true);
      expect(s.scratch.startsWith(join(root, 'cache-private', 'git'))).toBe(true);
    } finally {
      for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k]; else process.env[k] = v;
    }
    expect([git(user, 'status', '--porcelain'), git(user, 'for-each-ref')]).toEqual(before);
  });

  it('a ref that is not a rulec store is refused (RC7201)', async () => {
    const r = fresh('foreign');
    const work = join(root, 'foreign-work');
    mkdirSync(work);
    git(work, 'init', '--quiet');
    writeFileSync(join(work, 'README'), 'not a registry\n');
    git(work, 'add', 'README');
    git(work, '-c', 'user.name=x', '-c', 'user.email=x@y', 'commit', '--quiet', '-m', 'x');
    git(work, 'push', '--quiet', r.remote, 'HEAD:refs/rulec/registry');
    await expect(r.store().exists()).rejects.toMatchObject({ code: 'RC7201' });
  });

  it('sweep() removes a dead writer\'s temp objects, and only those', async () => {
    const r = fresh('sweep');
    const s = r.store();
    await s.init();
    const dir = join(s.scratch, 'objects', 'ab');
    mkdirSync(dir, { recursive: true });
    // init() wrote objects of its own, dated now: one in ab/ (1 in 256 runs) must stay too.
    const objects = readdirSync(dir);
    // pid 2^22 + 1 is above Linux's pid_max default range: no such process.
    writeFileSync(join(dir, `tmp_obj_rulec_${2 ** 22 + 1}_deadbeef`), 'x');
    writeFileSync(join(dir, `tmp_obj_rulec_${process.pid}_mine`), 'x');
    expect(await s.sweep()).toEqual([`removed temp object ab/tmp_obj_rulec_${2 ** 22 + 1}_deadbeef of the scratch repository`]);
    expect(readdirSync(dir).sort()).toEqual([...objects, `tmp_obj_rulec_${process.pid}_mine`].sort());
  });
});
