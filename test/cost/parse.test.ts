/** Parsing is near-linear: k sections, long lines of hostile tokens, many short lines, a large frontmatter. */
import { describe, expect, it } from 'vitest';
import { parseDoc } from '../../src/parse/parse-doc.js';
import { sourceFiles } from '../conflicts/tree.js';
import { describeDoubling, doubling, MAX_RATIO } from './stage-timing.js';
import { MARKUP, sections, textShapes } from './shapes.js';

const file = (path: string, text: string) => sourceFiles({ [path]: text })[0] as ReturnType<typeof sourceFiles>[number];
const parse = (f: ReturnType<typeof file>) => parseDoc(f);

describe('parse doubles at most linearly', () => {
  it('k sections', async () => {
    // Parsing k sections allocates a lot: a major GC in the 2n run lifts one ratio to ~3.3 now and
    // then (measured 1.9-2.9 otherwise; a quadratic step gives 4 and more every time), so more runs.
    const d = await doubling((k) => file('AGENTS.md', sections(k)), parse, { n: 1600, reps: 5, attempts: 5 });
    console.log(describeDoubling('parse, k sections', d));
    expect(d.ratio).toBeLessThan(MAX_RATIO);
  });

  // Up to 3.2 million code units: parsing a line of 12.8 million (the 2n input at 6.4 million) makes
  // strings of 25 MB, and the collector's work on them lifted one ratio to 3.48 on a fast host (the
  // small run 16.6 ms, the large 57.8 ms; 1.8-2.1 from 800,000 to 6.4 million measured alone). A
  // small input under the floor at the cap is timed several runs per sample instead. Many short
  // lines are an object and a string each, and the collector's share grows with them: on a guest
  // where page faults are dear, "many lines of unclosed tick runs" measured 2.86-2.96 in full runs
  // (2.07 alone; a profile: GC 983 ms against the scan's 635), so five reps and five tries, as
  // for k sections above.
  it.each(textShapes({ markup: MARKUP }))('%s', async (label, shape) => {
    const d = await doubling((n) => file('AGENTS.md', shape(n)), parse, { n: 200_000, maxN: 3_200_000, reps: 5, attempts: 5 });
    console.log(describeDoubling(`parse, ${label}`, d));
    expect(d.ratio).toBeLessThan(MAX_RATIO);
  });

  it.each([
    ['a heading with n blanks between two words', (n: number) => `# a${' \t'.repeat(n / 2)}b\n\ntext\n`],
    ['a loose (non-YAML) frontmatter value with n spaces inside', (n: number) => `---\nglobs: a${' '.repeat(n)}b\nbad: [\n---\n\n- Rule.\n`],
  ] as const)('%s (the regexes they replaced were cubic)', async (label, shape) => {
    const d = await doubling((n) => file('.cursor/rules/x.mdc', shape(n)), parse, { n: 100_000, maxN: 6_400_000 });
    console.log(describeDoubling(`parse, ${label}`, d));
    expect(d.ratio).toBeLessThan(MAX_RATIO);
  });

  // Read by the simple-shape reader (src/parse/simple-yaml.ts), and — with a comment line, which
  // that reader leaves alone — by the YAML library. The reader is fast enough that n must be free
  // to grow past 8,000 for the small input to reach the timing floor; at 64,000 lines the 2n run
  // allocates enough for the collector to move its ratio by ±0.4 (five attempts, as for profiles).
  // Each starts where a warm run takes about the floor: sized on its first, cold runs from a smaller
  // n, the library's case settled at 500 globs and then ran in 4 ms.
  it.each([
    ['a frontmatter of n globs', '', 8_000, 32_000],
    ['a frontmatter of n globs, read by the YAML library', '# the globs\n', 2_000, 8_000],
  ])('%s', async (label, head, n, maxN) => {
    const d = await doubling((k) => file('.claude/rules/x.md',
      `---\n${head}paths:\n${Array.from({ length: k }, (_, i) => `  - "src/p${i}/**/*.ts"`).join('\n')}\n---\n\n# X\n\n- Rule.\n`), parse, { n, maxN, attempts: 5 });
    console.log(describeDoubling(`parse, ${label.slice(2)}`, d));
    expect(d.ratio).toBeLessThan(MAX_RATIO);
  });
});
