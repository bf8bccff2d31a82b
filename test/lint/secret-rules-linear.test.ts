/**
 * The secret scan stays linear on hostile lines built from each new
 * pattern's anchor (URL credentials, Authorization headers, webhooks,
 * provider prefixes): four times the input must take well under sixteen
 * times as long (the quadratic case). A ratio, never an absolute threshold;
 * the best of three runs each, so a busy machine does not decide the result.
 */
import { describe, expect, it } from 'vitest';
import { findSecrets } from '../../src/validate/lint/secrets.js';
import { redact, redactionsOf } from '../../src/diagnostics/redact.js';

const line = (unit: string, size: number) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);

/** Time per call: calls repeated until 40 ms have passed, best of three such rounds (a busy machine only adds time). */
function best(fn: () => void): number {
  let min = Infinity;
  for (let round = 0; round < 3; round++) {
    let calls = 0;
    const t0 = performance.now();
    do { fn(); calls++; } while (performance.now() - t0 < 40);
    min = Math.min(min, (performance.now() - t0) / calls);
  }
  return min;
}

const UNITS = [
  'x://u:', 'postgres://a:b', 'https://u:p@', 'Authorization: Bearer ', 'hooks.slack.com/services/',
  'discord.com/api/webhooks/1', '1234567890:AA', 'aaaaaaaaaaaaaa.atlasv1.', 'aaa1Q~', 'xoxb-1234567890-',
  'a_secret: "', 'password',
];
const RATIO = 10;

describe('the secret scan is linear in the input', () => {
  it.each(UNITS)('%j', (unit) => {
    const small = line(unit, 1 << 16);
    const large = line(unit, 1 << 18);
    const t1 = best(() => findSecrets(small));
    const t2 = best(() => findSecrets(large));
    expect(t2 / t1).toBeLessThan(RATIO);
  });

  it('redact is linear in the text when secrets are present', () => {
    const r = redactionsOf([{ file: 'a', code: 'RC6003', range: { start: { line: 1, col: 1 }, end: { line: 1, col: 41 } }, value: `ghp_${'Ab1'.repeat(12)}`, keep: 4 }]);
    const small = line('ghp_Ab1Ab1 ... token ', 1 << 16);
    const large = line('ghp_Ab1Ab1 ... token ', 1 << 18);
    const t1 = best(() => redact(small, r));
    const t2 = best(() => redact(large, r));
    expect(t2 / t1).toBeLessThan(RATIO);
  });
});
