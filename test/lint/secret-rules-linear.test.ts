/**
 * The secret scan stays linear on hostile lines built from each new
 * pattern's anchor (URL credentials, Authorization headers, webhooks,
 * provider prefixes): twice the input must take well under four times as
 * long (the quadratic case). A ratio, never an absolute threshold, measured
 * with the cost tests' harness (test/cost/stage-timing.ts); a scan of one string is
 * steady enough for a 10 ms floor.
 */
import { describe, expect, it } from 'vitest';
import { findSecrets } from '../../src/validate/lint/secrets.js';
import { redact, redactionsOf } from '../../src/diagnostics/redact.js';
import { describeDoubling, doubling, MAX_RATIO } from '../cost/stage-timing.js';

const line = (unit: string, size: number) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);

const UNITS = [
  'x://u:', 'postgres://a:b', 'https://u:p@', 'Authorization: Bearer ', 'hooks.slack.com/services/',
  'discord.com/api/webhooks/1', '1234567890:AA', 'aaaaaaaaaaaaaa.atlasv1.', 'aaa1Q~', 'xoxb-1234567890-',
  'a_secret: "', 'password',
];

describe('the secret scan is linear in the input', () => {
  it.each(UNITS)('%j', async (unit) => {
    const d = await doubling((n) => line(unit, n), findSecrets, { n: 1 << 16, floorMs: 10 });
    console.log(describeDoubling(`findSecrets, ${JSON.stringify(unit)}`, d));
    expect(d.ratio).toBeLessThan(MAX_RATIO);
  });

  it('redact is linear in the text when secrets are present', async () => {
    const r = redactionsOf([{ file: 'a', code: 'RC6003', range: { start: { line: 1, col: 1 }, end: { line: 1, col: 41 } }, value: `ghp_${'Ab1'.repeat(12)}`, keep: 4 }]);
    const d = await doubling((n) => line('ghp_Ab1Ab1 ... token ', n), (text) => redact(text, r), { n: 1 << 16, floorMs: 10 });
    console.log(describeDoubling('redact', d));
    expect(d.ratio).toBeLessThan(MAX_RATIO);
  });
});
