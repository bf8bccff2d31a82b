/** Rendering with exact token counts is near-linear: many variants, long documents, long runs of one character. */
import { describe, expect, it } from 'vitest';
import { render } from '../../src/render/render.js';
import { forgetCountedTexts, tokenCounter } from '../../src/validate/token-count.js';
import type { Resolution } from '../../src/resolve/resolve.js';
import { resolveTree } from '../conflicts/tree.js';
import { describeDoubling, doubling, MAX_RATIO } from './stage-timing.js';
import { longLine, monorepo, sections } from './shapes.js';

// Each run counts every block again: the engine remembers whole texts, so they are forgotten first
// (else a run timed sha256, not counting); its piece cache stays warm for both sizes.
const renderAndCount = (res: Resolution) => {
  forgetCountedTexts();
  return render(res, tokenCounter('o200k_base'));
};

describe('render and count double at most linearly', () => {
  it('n directories (variants) and n attachments', async () => {
    const d = await doubling((n) => {
      const m = monorepo(n);
      return resolveTree(m.tree, m.paths);
    }, renderAndCount, { n: 200 });
    console.log(describeDoubling('render, monorepo', d));
    expect(d.ratio).toBeLessThan(MAX_RATIO);
  });

  it('one document of k sections', async () => {
    const d = await doubling((k) => resolveTree({ 'AGENTS.md': sections(k) }), renderAndCount, { n: 800 });
    console.log(describeDoubling('render, k sections', d));
    expect(d.ratio).toBeLessThan(MAX_RATIO);
  });

  const distinctWords = (n: number): string => `# T\n\n${Array.from({ length: Math.ceil(n / 7) }, (_, i) => `w${i}`).join(' ')}\n`;
  it.each([
    ['a run of spaces (one huge piece)', (n: number) => longLine(' ', n)],
    ['distinct words', distinctWords],
    ['fence-like tags that must be escaped', (n: number) => longLine('</rulec-source> ', n)],
  ] as const)('one long line of %s', async (label, shape) => {
    const d = await doubling((n) => resolveTree({ 'AGENTS.md': shape(n) }), renderAndCount, { n: 100_000, maxN: 6_400_000 });
    console.log(describeDoubling(`render, long line of ${label}`, d));
    expect(d.ratio).toBeLessThan(MAX_RATIO);
  });
});
