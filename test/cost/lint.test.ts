/**
 * The lint catalogue is near-linear: long lines and many lines of hostile
 * tokens, secret-shaped and invisible text. Each timed run lints a document it
 * has just parsed, as a build does: rules keep what they derive from a
 * document (its text index, its secrets, its hidden characters) per document
 * object, so linting one document again would time those lookups, not the scans.
 */
import { describe, expect, it } from 'vitest';
import { parseDoc } from '../../src/parse/parse-doc.js';
import { runLint, type LintInput } from '../../src/validate/lint-rules.js';
import { sourceFiles } from '../conflicts/tree.js';
import { describeDoubling, doubling, MAX_RATIO } from './stage-timing.js';
import { LOOK_ALIKES, MARKUP, textShapes } from './shapes.js';

const file = (text: string): LintInput['file'] => sourceFiles({ 'AGENTS.md': text })[0] as LintInput['file'];
const lint = (f: LintInput['file']) => runLint([{ file: f, doc: parseDoc(f).value }], () => 'warning');
describe('lint doubles at most linearly', () => {
  it.each(textShapes({ markup: MARKUP, 'secret look-alikes': LOOK_ALIKES }))('%s', async (label, shape) => {
    const d = await doubling((n) => file(shape(n)), lint, { n: 200_000, maxN: 3_200_000 });
    console.log(describeDoubling(`lint, ${label}`, d));
    expect(d.ratio).toBeLessThan(MAX_RATIO);
  });
});
