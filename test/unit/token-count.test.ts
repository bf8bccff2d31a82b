import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { referenceEncoding, releaseReferenceEncodings } from '../helpers/reference-encoding.js';
import { createRequire } from 'node:module';
import { encodeLength, SEGMENTED_FROM, tokenCounter } from '../../src/validate/token-count.js';
import { RankTable } from '../../src/validate/rank-table.js';
import { renderBlock } from '../../src/render/fence.js';

const require = createRequire(import.meta.url);
const counter = tokenCounter('o200k_base');
/** Independent oracle: js-tiktoken's own encoder, special tokens read as text. */
afterAll(releaseReferenceEncodings);
const exact = (text: string): number => referenceEncoding('o200k_base').encode(text, [], []).length;

/** Body text without CR: words, whitespace runs, punctuation, fence fragments and non-ASCII. */
const bodyPiece = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('\n', '\n\n', ' ', '  ', '\t', '    ', '# ', '- ', '```', '`', '>', '<', '</rulec-source>', '<rulec-', '\\', '@AGENTS.md', '123', '4567', "'s", 'é', '日本語', '\u{1F600}', '\u200B', ' \n', '.\n', 'word', 'Word', 'WORD') },
  { weight: 2, arbitrary: fc.string({ maxLength: 8 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 6 }) },
);
const body = fc
  .array(bodyPiece, { maxLength: 40 })
  .map((parts) => parts.join('').replace(/\r/g, '').slice(0, 300));

const attr = fc.oneof(fc.constantFrom('AGENTS.md', 'packages/api/CLAUDE.md', 'repo', 'path', 'é/ü.md'), fc.string({ maxLength: 10 }));
const block = fc
  .record({ path: attr, layer: attr, sha256: fc.stringMatching(/^[0-9a-f]{0,64}$/), body, importedBy: fc.option(attr, { nil: undefined }) })
  .map(({ body: text, ...a }) => renderBlock(a.importedBy === undefined ? { path: a.path, layer: a.layer, sha256: a.sha256 } : a, text));

describe('tokenCounter', () => {
  it('counts the empty string as zero tokens and known text exactly', () => {
    expect([counter.count(''), counter.count('hello'), counter.count('hello world'), counter.count('<|endoftext|>')]).toEqual([0, 1, 2, exact('<|endoftext|>')]);
    expect(counter.encoding).toBe('o200k_base');
  });

  it.each(['o200k_base', 'cl100k_base', 'p50k_base', 'r50k_base'] as const)('%s: counts equal js-tiktoken\'s encode() on any text', (encoding) => {
    const ref = referenceEncoding(encoding);
    // The rank table rulec gives the library's encoder answers as the library's own map does, entry for
    // entry, and says "no token" for byte strings that are none (a small memo, so answers also come
    // from a memo that has started over).
    const theirs = (ref as unknown as { rankMap: Map<string, number> }).rankMap;
    const bpe = (require(`js-tiktoken/ranks/${encoding}`) as { bpe_ranks: string }).bpe_ranks;
    const ours = new RankTable(bpe);
    expect(ours.size).toBe(theirs.size);
    let differ = 0;
    for (const [k, v] of theirs) if (ours.get(k) !== v) differ++;
    // A second pass through a memo of 1,000 that keeps starting over.
    const small = new RankTable(bpe, 1_000);
    let i = 0;
    for (const [k, v] of theirs) if (i++ % 20 === 0 && (small.get(k) !== v || small.get(k) !== v)) differ++;
    expect(differ).toBe(0);
    fc.assert(fc.property(fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 7 }), (bytes) => ours.get(bytes.join(',')) === theirs.get(bytes.join(','))), { numRuns: 2000 });
    expect(['256', '', '104,x', '104,', ',104', '01', '-1', '104,101,1080'].map((k) => ours.get(k))).toEqual(Array(8).fill(undefined));
    expect([ours.get('0'), ours.get('104,101,108,108,111')]).toEqual([theirs.get('0'), theirs.get('104,101,108,108,111')]);
    const c = tokenCounter(encoding);
    for (const t of ['<|endoftext|> and <|fim_prefix|>', '  indented\n\tcode', '日本語のテキスト', '\u{1F600}\u{1F600}!', 'a'.repeat(300)]) {
      expect(c.count(t), t).toBe(ref.encode(t, [], []).length);
    }
    fc.assert(fc.property(body, (t) => c.count(t) === ref.encode(t, [], []).length), { numRuns: 40 });
  });

  it('counts a long text the same on a cache hit', () => {
    const text = 'x'.repeat(100) + '\n'.repeat(3);
    expect(counter.count(text)).toBe(tokenCounter('o200k_base').count(text));
    expect(counter.count(text)).toBe(counter.count(text));
  });

  it('is additive over rendered blocks: count(join) = sum of counts', () => {
    fc.assert(
      fc.property(fc.array(block, { minLength: 1, maxLength: 6 }), (blocks) => {
        const joined = blocks.join('');
        const sum = blocks.reduce((n, b) => n + counter.count(b), 0);
        expect(counter.count(joined)).toBe(sum);
        // …and the counts are the real ones, not merely consistent with each other.
        expect([counter.count(joined), ...blocks.map((b) => counter.count(b))]).toEqual([exact(joined), ...blocks.map(exact)]);
      }),
      { numRuns: 30 },
    );
  });

  // Texts of SEGMENTED_FROM code units and more are counted paragraph by paragraph where the
  // encoding's pre-tokenizer allows it (o200k, cl100k); p50k and r50k are counted whole, and for
  // p50k cutting would be wrong: count("para\n\n") + count("Word") is 4, the whole is 5.
  // Each paragraph ends in a word, so no whitespace run outgrows MAX_EXACT_PIECE (past it, the count is approximate by design).
  const paragraph = fc.tuple(fc.constantFrom('', ' ', '/', '.', '-', '\n', '\t', "'s", 'W', 'w', '1', '日', '\u{1F600}', '\u00A0', '\u2028'), body)
    .map(([head, text]) => `${head}${text}end`);
  const seamed = fc.tuple(fc.array(paragraph, { minLength: 1, maxLength: 12 }), fc.array(fc.constantFrom('\n\n', '\n', '\n\n\n', ' \n\n', '\r\n\r\n', '\n \n'), { minLength: 12, maxLength: 12 }))
    .map(([paras, seps]) => {
      let text = '';
      for (let i = 0; text.length < SEGMENTED_FROM; i++) text += (paras[i % paras.length] as string) + (seps[i % seps.length] as string);
      return text;
    });

  // The oracle is encode() of the whole text with the library's encoder over the rank map the
  // test above proves equal to its own (building the library's tables again costs seconds).
  it.each(['o200k_base', 'cl100k_base', 'p50k_base'] as const)('%s: a long text counted by paragraphs equals encode() of the whole', (encoding) => {
    const c = tokenCounter(encoding);
    fc.assert(fc.property(seamed, (t) => c.count(t) === encodeLength(encoding, t)), { numRuns: 40 });
    const para = 'para\n\n';
    const text = `${para}Word here, and more words.\n\n/${'x'.repeat(10)}\n\n`.repeat(Math.ceil(SEGMENTED_FROM / 40));
    expect(c.count(text)).toBe(encodeLength(encoding, text));
  });
});
