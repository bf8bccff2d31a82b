/**
 * The prompt-cache figure is exact: the tokens it says a cache keeps are the
 * leading tokens both texts really share, as js-tiktoken's own encoder splits
 * them (property test), and whole identical blocks are kept whole.
 */
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { referenceEncoding, releaseReferenceEncodings } from '../helpers/reference-encoding.js';
import { tokenCounter } from '../../src/validate/token-count.js';
import { renderBlock } from '../../src/render/fence.js';
import { safePrefix, variantCache } from '../../src/diff/prompt-cache.js';

const counter = tokenCounter('o200k_base');
afterAll(releaseReferenceEncodings);
const encode = (text: string): number[] => referenceEncoding('o200k_base').encode(text, [], []);

const piece = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('\n', '\n\n', ' ', '  ', '\t', '# ', '- ', '```', '`', '.', '.\n', ' \n', 'word', 'Word', 'npm test', '123', 'é', '日本語', '\u{1F600}', '/', '\n/', '\n ', '\nA', '\n1') },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
);
const text = fc.array(piece, { maxLength: 30 }).map((p) => p.join('').replace(/\r/g, ''));

const block = (path: string, body: string): string => renderBlock({ path, layer: 'repo', sha256: 'ab'.repeat(32) }, body);

describe('prompt-cache prefix', () => {
  it('counts exactly the leading tokens both texts share (safePrefix)', () => {
    fc.assert(fc.property(text, text, text, (common, x, y) => {
      const a = common + x;
      const b = common + y;
      const prefix = safePrefix(a, b);
      expect(a.startsWith(prefix) && b.startsWith(prefix)).toBe(true);
      const kept = counter.count(prefix);
      const ea = encode(a);
      const eb = encode(b);
      // The prefix's tokens are the first `kept` tokens of both texts.
      expect(encode(prefix)).toEqual(ea.slice(0, kept));
      expect(ea.slice(0, kept)).toEqual(eb.slice(0, kept));
    }), { numRuns: 300 });
  });

  it('keeps whole identical leading blocks, and the shared lines inside the first block that differs', () => {
    const root = block('AGENTS.md', '# Repo\n\nUse pnpm.\n');
    const apiOld = block('packages/api/AGENTS.md', '# API\nKeep handlers small.\nNever log bodies.\n');
    const apiNew = block('packages/api/AGENTS.md', '# API\nKeep handlers small.\nNever log request bodies.\n');
    const c = variantCache(root + apiOld, root + apiNew, counter);
    const inside = counter.count(safePrefix(apiOld, apiNew));
    expect(inside).toBeGreaterThan(0);
    expect(c).toEqual({ old_tokens: counter.count(root + apiOld), new_tokens: counter.count(root + apiNew),
      kept_tokens: counter.count(root) + inside, whole_prefix: false, first_change: 'packages/api/AGENTS.md' });
  });

  it('keeps the whole old text when blocks are only appended, and nothing when the first block changes', () => {
    const root = block('AGENTS.md', 'Use pnpm.\n');
    const api = block('packages/api/AGENTS.md', 'Keep handlers small.\n');
    expect(variantCache(root, root + api, counter)).toEqual({ old_tokens: counter.count(root), new_tokens: counter.count(root + api),
      kept_tokens: counter.count(root), whole_prefix: true, first_change: null });
    // The fence names the source's sha256: a changed source breaks the prefix at its fence line.
    const changed = renderBlock({ path: 'AGENTS.md', layer: 'repo', sha256: 'cd'.repeat(32) }, 'Use pnpm.\n');
    expect(variantCache(root + api, changed + api, counter)).toMatchObject({ kept_tokens: 0, whole_prefix: false, first_change: 'AGENTS.md' });
  });
});
