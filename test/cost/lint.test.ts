/** The lint catalogue is near-linear: long lines and many lines of hostile tokens, secret-shaped and invisible text. */
import { describe, expect, it } from 'vitest';
import { parseDoc } from '../../src/parse/parse-doc.js';
import { runLint, type LintInput } from '../../src/validate/lint-rules.js';
import { sourceFiles } from '../conflicts/tree.js';
import { describeDoubling, doubling, MAX_RATIO } from './stage-timing.js';
import { LOOK_ALIKES, MARKUP, textShapes } from './shapes.js';

const input = (text: string): LintInput[] => {
  const file = sourceFiles({ 'AGENTS.md': text })[0] as LintInput['file'];
  return [{ file, doc: parseDoc(file).value }];
};
const lint = (inputs: LintInput[]) => runLint(inputs, () => 'warning');
describe('lint doubles at most linearly', () => {
  it.each(textShapes({ markup: MARKUP, 'secret look-alikes': LOOK_ALIKES }))('%s', async (label, shape) => {
    const d = await doubling((n) => input(shape(n)), lint, { n: 200_000, maxN: 3_200_000 });
    console.log(describeDoubling(`lint, ${label}`, d));
    expect(d.ratio).toBeLessThan(MAX_RATIO);
  });
});
