/**
 * Canary cohorts: a subject's bucket in 0..9999 is
 *   uint64_be(sha256(bundle_id ‖ 0x00 ‖ salt ‖ 0x00 ‖ subject)[0..8]) mod 10000
 * and the subject is in a canary of `bps` basis points when bucket < bps.
 * The bundle id is the canary bundle's manifest bundle_id; the salt is fixed
 * when the canary starts, so ramping up only ever adds members.
 */
import { createHash } from 'node:crypto';
import { MAX_BPS } from './model.js';

export function bucketOf(bundleId: string, salt: string, subject: string): number {
  const h = createHash('sha256');
  h.update(bundleId, 'utf8').update(Buffer.of(0)).update(salt, 'utf8').update(Buffer.of(0)).update(subject, 'utf8');
  return Number(h.digest().readBigUInt64BE(0) % BigInt(MAX_BPS));
}

/** A missing subject is never in a canary. */
export function inCohort(bucket: number | null, bps: number): boolean {
  return bucket !== null && bucket < bps;
}

/** Subjects are hashed after a NUL separator; one holding NUL (or nothing) is refused by the callers. */
export function validSubject(subject: string): boolean {
  return subject.length > 0 && subject.length <= 1024 && !subject.includes('\0');
}
