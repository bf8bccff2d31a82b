/**
 * A writer lock for a local store directory (one host).
 *
 * 1. Acquire: write {pid, token, boot} to a temp file and link(2) it to
 *    `lock`: the lock appears with its whole content or not at all, and
 *    exactly one of any number of contenders creates it.
 * 2. A lock whose process is gone (no such pid, a pid now used by a process
 *    that started later, or a lock written before the last boot) is stale. To break it, a contender creates `lock.break-<token>`
 *    with O_EXCL — only one breaker per stale lock — re-reads `lock`, and
 *    removes it only if it still holds that token. Only the owner or that one
 *    breaker ever removes a given token, so a live lock is never removed.
 *    A break marker older than 10 s belongs to a breaker that died; it goes.
 * 3. Release removes the lock only if it still holds our token.
 * A lock held by a live process longer than the wait limit is RC7208.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { linkSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { registryError } from '../errors.js';
import { crashPoint, isErrno, sleep, tempName } from './durable.js';

interface LockInfo {
  pid: number;
  token: string;
  host: string;
  boot: string;
  /** The holder's start time (Linux /proc): a reused pid names another process. */
  started?: string;
}

const MARKER_MAX_AGE_MS = 10_000;

/** Start time of process `pid` in clock ticks since boot (field 22 of /proc/<pid>/stat), or '' where unknown. */
function processStart(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '';
  } catch {
    return '';
  }
}

let bootId: string | undefined;
function currentBoot(): string {
  if (bootId === undefined) {
    try {
      bootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    } catch {
      bootId = '';
    }
  }
  return bootId;
}

export interface LockOptions {
  path: string;
  tmpDir: string;
  timeoutMs: number;
  /** Called with a note when a stale lock is broken. */
  onBreak?: (note: string) => void;
}

export async function withLock<T>(options: LockOptions, fn: () => Promise<T>): Promise<T> {
  const token = await acquire(options);
  try {
    return await fn();
  } finally {
    release(options.path, token);
  }
}

async function acquire(o: LockOptions): Promise<string> {
  const me: LockInfo = { pid: process.pid, token: randomBytes(12).toString('hex'), host: hostname(), boot: currentBoot(), started: processStart(process.pid) };
  const tmp = tempName(o.tmpDir);
  writeFileSync(tmp, JSON.stringify(me));
  const deadline = Date.now() + o.timeoutMs;
  let wait = 2;
  try {
    for (;;) {
      try {
        linkSync(tmp, o.path);
        crashPoint('lock acquired');
        return me.token;
      } catch (e) {
        if (!isErrno(e, 'EEXIST')) throw e;
      }
      const held = readLock(o.path);
      if (held !== 'gone' && isStale(held, o.path)) breakStale(o, held);
      else if (held !== 'gone') {
        if (Date.now() > deadline) {
          throw registryError('RC7208', { file: 'lock', message: `the store is locked by process ${held === 'unreadable' ? '(unknown)' : `${held.pid} on ${held.host}`} for more than ${Math.round(o.timeoutMs / 1000)} s` });
        }
        await sleep(wait + Math.random() * wait);
        wait = Math.min(wait * 2, 50);
      }
    }
  } finally {
    try {
      unlinkSync(tmp);
    } catch {
      // already gone
    }
  }
}

function readLock(path: string): LockInfo | 'gone' | 'unreadable' {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if (isErrno(e, 'ENOENT')) return 'gone';
    return 'unreadable';
  }
  try {
    const v = JSON.parse(text) as LockInfo;
    return Number.isSafeInteger(v.pid) && typeof v.token === 'string' && typeof v.host === 'string' ? v : 'unreadable';
  } catch {
    return 'unreadable';
  }
}

function isStale(held: LockInfo | 'unreadable', path: string): boolean {
  if (held === 'unreadable') return ageMs(path) > MARKER_MAX_AGE_MS;
  if (held.host !== hostname()) return false;
  if (held.boot !== '' && currentBoot() !== '' && held.boot !== currentBoot()) return true;
  try {
    process.kill(held.pid, 0);
  } catch (e) {
    return isErrno(e, 'ESRCH');
  }
  const started = held.started ? processStart(held.pid) : '';
  return started !== '' && started !== held.started;
}

function breakStale(o: LockOptions, held: LockInfo | 'unreadable'): void {
  const token = held === 'unreadable' ? 'unreadable' : held.token;
  const marker = `${o.path}.break-${token}`;
  try {
    writeFileSync(marker, String(process.pid), { flag: 'wx' });
  } catch (e) {
    if (!isErrno(e, 'EEXIST')) throw e;
    if (ageMs(marker) > MARKER_MAX_AGE_MS) unlinkQuiet(marker);
    return;
  }
  try {
    const again = readLock(o.path);
    const same = again !== 'gone' && (again === 'unreadable' ? held === 'unreadable' : again.token === token);
    if (same) {
      unlinkQuiet(o.path);
      o.onBreak?.(held === 'unreadable' ? 'removed an unreadable lock file' : `removed the lock of process ${held.pid}, which no longer runs`);
    }
  } finally {
    unlinkQuiet(marker);
  }
}

function release(path: string, token: string): void {
  const held = readLock(path);
  if (held !== 'gone' && held !== 'unreadable' && held.token === token) unlinkQuiet(path);
}

function ageMs(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function unlinkQuiet(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
