/**
 * The git store's scratch repository: private to rulec, a bare repository
 * under the cache directory (`$RULEC_CACHE_DIR`, else `$XDG_CACHE_HOME/rulec`,
 * else `~/.cache/rulec`) keyed by the remote URL; never the user's clone, work
 * tree or index. Its own copy of the store ref marks which commit it holds
 * completely (see GitStore.refresh).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { readRegularFile } from '../../bundle/read-regular.js';
import { sha256Hex } from '../../util/hash.js';
import { registryError } from '../errors.js';
import { runGit } from '../remote/git-process.js';
import { alive, isErrno } from './durable.js';
import { GIT_REF } from './git-layout.js';
import { lastLines } from './git-remote.js';
import { withLock } from './lock.js';

export function defaultCacheDir(): string {
  return process.env.RULEC_CACHE_DIR || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'rulec');
}

export class ScratchRepo {
  readonly path: string;

  constructor(remote: string, cacheDir = defaultCacheDir()) {
    this.path = join(cacheDir, 'git', `${sha256Hex(remote).slice(0, 16)}.git`);
  }

  /** Create the bare repository when it is missing (a concurrent creator may win the rename). */
  async ensure(): Promise<void> {
    if (existsSync(join(this.path, 'HEAD'))) return;
    const parent = join(this.path, '..');
    mkdirSync(parent, { recursive: true });
    const tmp = join(parent, `.init-${process.pid}-${randomBytes(6).toString('hex')}`);
    const r = await runGit(tmp, ['init', '--quiet', '--bare', tmp]);
    if (r.code !== 0) throw registryError('RC7601', { file: '', message: `cannot create the scratch repository ${this.path}${lastLines(r.stderr)}` });
    mkdirSync(join(tmp, 'rulec-tmp'));
    try {
      renameSync(tmp, this.path);
    } catch (e) {
      rmSync(tmp, { recursive: true, force: true });
      if (!isErrno(e, 'ENOTEMPTY', 'EEXIST')) throw e;
    }
  }

  /** Fetches and the copy of the ref, one process of this host at a time. */
  locked<T>(fn: () => Promise<T>): Promise<T> {
    return withLock({ path: join(this.path, 'rulec-fetch.lock'), tmpDir: join(this.path, 'rulec-tmp'), timeoutMs: 120_000 }, fn);
  }

  /** The writers of this host take turns (`onBreak` hears of a stale lock broken). */
  writerLocked<T>(timeoutMs: number, onBreak: (note: string) => void, fn: () => Promise<T>): Promise<T> {
    return withLock({ path: join(this.path, 'rulec-writer.lock'), tmpDir: join(this.path, 'rulec-tmp'), timeoutMs, onBreak }, fn);
  }

  /** The copy of the ref (a loose ref, or packed by git gc), or null. */
  localRef(): string | null {
    const loose = readRegularFile(join(this.path, GIT_REF), 256);
    if (loose.ok) return /^([0-9a-f]{40,64})\n?$/.exec(loose.bytes.toString('latin1'))?.[1] ?? null;
    const packed = readRegularFile(join(this.path, 'packed-refs'));
    if (!packed.ok) return null;
    return new RegExp(`^([0-9a-f]{40,64}) ${GIT_REF}$`, 'm').exec(packed.bytes.toString('latin1'))?.[1] ?? null;
  }

  /** After a push: the commit was built from complete parts, so the scratch holds it completely. */
  async markHeld(commit: string): Promise<void> {
    await this.locked(async () => {
      const tmp = join(this.path, 'rulec-tmp', `ref-${process.pid}-${randomBytes(6).toString('hex')}`);
      mkdirSync(join(this.path, 'refs', 'rulec'), { recursive: true });
      writeFileSync(tmp, `${commit}\n`);
      renameSync(tmp, join(this.path, GIT_REF));
    });
  }

  /** Remove the temp objects of writers that died; one note per object removed. */
  sweepTemps(): string[] {
    const removed: string[] = [];
    const objects = join(this.path, 'objects');
    for (const dir of existsSync(objects) ? readdirSync(objects).filter((d) => /^[0-9a-f]{2}$/.test(d)) : []) {
      for (const name of readdirSync(join(objects, dir))) {
        const pid = Number(/^tmp_obj_rulec_(\d+)_/.exec(name)?.[1] ?? NaN);
        if (!Number.isSafeInteger(pid) || pid === process.pid || alive(pid)) continue;
        unlinkSync(join(objects, dir, name));
        removed.push(`removed temp object ${dir}/${name} of the scratch repository`);
      }
    }
    return removed;
  }
}
