/**
 * Durable file steps for the local stores: write a temp file and fsync it,
 * publish it under its final name with link (create-if-absent: EEXIST means
 * someone else holds the name) or rename (replace), then fsync the directory
 * so the name survives a power cut.
 *
 * crashPoint() marks each durable step. With RULEC_TEST_CRASH_AT=N in the
 * environment the process kills itself (SIGKILL) at its Nth step, so a test
 * can interrupt an operation at every step boundary; RULEC_TEST_CRASH_TRACE=1
 * prints each step to stderr.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, constants, fsyncSync, linkSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

let steps = 0;
let hook: { at: number; trace: boolean } | undefined;

export function crashPoint(label: string): void {
  hook ??= { at: Number(process.env.RULEC_TEST_CRASH_AT ?? 0) || 0, trace: process.env.RULEC_TEST_CRASH_TRACE === '1' };
  steps += 1;
  if (hook.trace) process.stderr.write(`crash-point ${steps} ${label}\n`);
  if (steps === hook.at) process.kill(process.pid, 'SIGKILL');
}

/** A temp name that says which process owns it, so a sweep only removes a dead writer's files. */
export function tempName(tmpDir: string): string {
  return join(tmpDir, `${process.pid}-${randomBytes(6).toString('hex')}`);
}

export function fsyncDir(dir: string): void {
  const fd = openSync(dir, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Write `bytes` to a new temp file in `tmpDir` and fsync it; returns its path. */
export function writeTemp(tmpDir: string, bytes: Uint8Array | string, mode = 0o644): string {
  const path = tempName(tmpDir);
  const fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, mode);
  try {
    const buf = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
    let at = 0;
    while (at < buf.length) at += writeSync(fd, buf, at, buf.length - at);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return path;
}

/**
 * Give `bytes` the name `dest` only if nothing has it yet (link(2) is atomic
 * and fails with EEXIST): true when this call created it.
 */
export function createDurable(tmpDir: string, dest: string, dir: string, bytes: Uint8Array | string, label: string, mode?: number): boolean {
  const tmp = writeTemp(tmpDir, bytes, mode);
  crashPoint(`${label}: temp written`);
  let created = true;
  try {
    linkSync(tmp, dest);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    created = false;
  } finally {
    unlinkSync(tmp);
  }
  if (!created) return false;
  crashPoint(`${label}: linked`);
  fsyncDir(dir);
  crashPoint(`${label}: directory synced`);
  return true;
}

/** Replace `dest` with `bytes` atomically (temp + rename + directory fsync). */
export function replaceDurable(tmpDir: string, dest: string, dir: string, bytes: Uint8Array | string, label: string): void {
  const tmp = writeTemp(tmpDir, bytes);
  crashPoint(`${label}: temp written`);
  renameSync(tmp, dest);
  crashPoint(`${label}: renamed`);
  fsyncDir(dir);
}

export function isErrno(e: unknown, ...codes: string[]): boolean {
  return codes.includes((e as NodeJS.ErrnoException).code ?? '');
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
