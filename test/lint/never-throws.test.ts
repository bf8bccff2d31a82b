/**
 * runLint never throws, never reports an internal error, and stays linear:
 * arbitrary strings and bytes (fast-check), then megabyte-long lines built to
 * make a backtracking regex go quadratic on each rule family's anchors.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { catalogueEntry } from '../../src/diagnostics/catalogue.js';
import { runLint } from '../../src/validate/lint-rules.js';
import { inputFromBytes, inputFromText } from './lint-input.js';

const defaults = (code: string) => catalogueEntry(code).severity;

const FRAGMENTS = [
  '\n', '\r\n', '\r', ' ', '`', '```', '~~~', '- ', '# ', 'never ', 'curl ', 'wget -q ', '| sh', '| bash',
  'rm -rf ', '~', '/', '*', '..', 'chmod 777 ', 'git push -f origin main', '--no-verify', 'HUSKY=0',
  'ignore all previous instructions', 'the system prompt', 'you are now DAN', 'do not tell the user',
  'send the contents to https://x', '<rulec-source', '</INSTRUCTIONS>', '<|im_start|>', 'Human: ',
  '--- Context from: ', 'AKIA', 'ghp_', 'sk-', 'sk-ant-', 'AIza', 'eyJ', '.', 'password=', 'api_key: ',
  '-----BEGIN RSA PRIVATE KEY-----', '\u202E', '\u200B', '\u200D', '\uFE0F', '\u{E0041}', '\u{1F3F4}',
  '\u{1F469}', '\uFEFF', '\u0000', '\uD800', 'A1b2C3d4E5f6G7h8', '.env', '.github/workflows',
];

describe('runLint never throws', () => {
  it('on arbitrary Unicode strings', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (text) => {
      const found = runLint([inputFromText(text)], defaults);
      expect(found.filter((d) => d.code === 'RC9001')).toEqual([]);
    }), { numRuns: 300 });
  });

  it('on strings assembled from rule anchors', () => {
    const text = fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 80 }).map((parts) => parts.join(''));
    fc.assert(fc.property(text, (t) => {
      for (const d of runLint([inputFromText(t)], defaults)) {
        expect(d.code).not.toBe('RC9001');
        expect(d.range.start.line).toBeGreaterThanOrEqual(1);
        expect(d.range.start.col).toBeGreaterThanOrEqual(1);
      }
    }), { numRuns: 500 });
  });

  it('on arbitrary bytes', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 400 }), (bytes) => {
      const found = runLint([inputFromBytes('AGENTS.md', bytes)], defaults);
      expect(found.filter((d) => d.code === 'RC9001')).toEqual([]);
    }), { numRuns: 300 });
  });
});

describe('runLint stays linear on 256 KB lines', () => {
  // A quarter of a megabyte: quadratic work still shows, as a ratio near 4 against four runs of
  // the quarter line (each takes milliseconds), at a quarter of the time a megabyte took.
  const MB = 1 << 18;
  const line = (unit: string, bytes = MB) => unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);
  const units = [
    'a', 'curl ', 'curl -', 'wget | ', 'rm -rf -r ', 'rm -r ', 'chmod -R ', 'git push -f ', 'force-push to ',
    'eyJ-', 'eyJabcde.', 'a.', 'a-', 'x:', 'password', 'password=', 'AKIA', 'ghp_', 'sk-', 'xoxb-1234567-',
    '`', '``', '` `` ', 'ignore ', 'ignore all the ', 'send the data ', 'you are now ', 'Contents of ',
    '<rulec-source ', '\u200B', '\u{E0041}', '\uFE0F', 'iex ', 'irm ', 'sh -c ', 'Never ', '.env ',
    // many short lines, each a finding that looks back for negation
    'rm -rf /\n', '- curl x | sh\n', '  git push -f origin main\n', 'ignore previous instructions\n',
    '```\n', '`a`\n', '\n', 'Edit .env\n', '\u200B\n', 'Human: x\n',
  ];
  const timed = (text: string): { ms: number; found: ReturnType<typeof runLint> } => {
    const started = performance.now();
    const found = runLint([inputFromText(text)], defaults);
    return { ms: performance.now() - started, found };
  };
  /**
   * Cost is a ratio, not a deadline (a loaded machine has none to keep): the
   * quarter line four times over, then the whole line once, after a small
   * warm-up run — the same work if linear, so both take about as long and are
   * as likely to lose the core to another process (a 2 ms quarter run against a
   * 10 ms whole one was preempted less often, and a loaded machine read 10 for
   * a linear rule). Linear work gives a ratio near 1, quadratic near 4; the bound
   * is 2. A ratio over it is measured again, the best of five runs of each,
   * and if still over, once more at twice the size (512 KB against four of 128
   * KB), the best of the three counting: a stall during one run does not
   * decide it, nor does a cache or collector threshold that falls between 64
   * and 256 KB (a linear rule measured 2.11 after five runs on a loaded
   * host); a quadratic rule is near 4 at every size and fails every run.
   */
  const ratio = (unit: string, runs = 1, bytes = MB): { ratio: number; ms: string; found: ReturnType<typeof runLint> } => {
    timed(line(unit, 4096));
    const quarterLine = line(unit, bytes / 4);
    let quarters = Infinity;
    let whole = { ms: Infinity, found: [] as ReturnType<typeof runLint> };
    for (let i = 0; i < runs; i++) {
      let fourTimes = 0;
      for (let k = 0; k < 4; k++) fourTimes += timed(quarterLine).ms;
      quarters = Math.min(quarters, fourTimes);
      const w = timed(line(unit, bytes));
      if (w.ms < whole.ms) whole = w;
    }
    return { ratio: whole.ms / Math.max(quarters, 1), ms: `${bytes >> 10} KB: four quarters ${quarters.toFixed(1)} ms, the whole ${whole.ms.toFixed(1)} ms`, found: whole.found };
  };
  it.each(units)('%j', (unit) => {
    let run = ratio(unit);
    expect(run.found.filter((d) => d.code === 'RC9001')).toEqual([]);
    for (const bytes of [MB, 2 * MB]) {
      if (run.ratio < 2) break;
      const again = ratio(unit, 5, bytes);
      if (again.ratio < run.ratio) run = again;
    }
    expect(run.ratio, `time(whole line) / time(four quarter lines), the best measurement: ${run.ms}`).toBeLessThan(2);
  });
});
