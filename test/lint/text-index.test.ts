import { describe, expect, it } from 'vitest';
import { buildTextIndex, inCode, inFence, positionAt } from '../../src/validate/lint/text-index.js';
import { isForbidden } from '../../src/validate/lint/negation.js';

/** Which characters of `text` are in code, as a string of `c` and `.`. */
function codeMap(text: string): string {
  const index = buildTextIndex(text);
  return [...text].map((_, i) => (inCode(index, i) ? 'c' : '.')).join('');
}

describe('text index', () => {
  it('maps offsets to 1-based line and UTF-16 column', () => {
    const index = buildTextIndex('ab\n😀x\n');
    expect([0, 2, 3, 5, 6, 7].map((o) => positionAt(index, o))).toEqual([
      { line: 1, col: 1 }, { line: 1, col: 3 }, { line: 2, col: 1 }, { line: 2, col: 3 },
      { line: 2, col: 4 }, { line: 3, col: 1 },
    ]);
  });

  const spans: [string, string, string][] = [
    ['single backticks', 'a `b` c', '..ccc..'],
    ['double backticks around a single one', 'x ``a`b`` y', '..ccccccc..'],
    ['unmatched run', 'a ` b', '.....'],
    ['span does not cross a blank line', '`a\n\nb`', '......'],
    ['span crosses a soft line break', '`a\nb`', 'ccccc'],
  ];
  it.each(spans)('code spans: %s', (_name, text, expected) => {
    expect(codeMap(text)).toBe(expected);
  });

  it('tracks fences: tilde, longer closers, unclosed to EOF, info strings with backticks', () => {
    const text = 'a\n~~~\nx\n~~~~\nb\n````md\n```\ny\n````\nc\n```\nz';
    const index = buildTextIndex(text);
    const fenced = text.split('\n').map((_, n) => inFence(index, index.lineStarts[n]!));
    expect(fenced).toEqual([false, true, true, true, false, true, true, true, true, false, true, true]);
    expect(inFence(buildTextIndex('``` a`b\nx'), 9)).toBe(false);
  });
});

describe('negation', () => {
  const at = (text: string, needle: string) => {
    const start = text.indexOf(needle);
    return isForbidden(buildTextIndex(text), start, start + needle.length);
  };
  const cases: [string, string, boolean][] = [
    ['Never use --no-verify.', '--no-verify', true],
    ['Use --no-verify. Never push.', '--no-verify', false],
    ["Don't ever run rm -rf /", 'rm -rf /', true],
    ['Run rm -rf / (never).', 'rm -rf /', true],
    ['Avoid:\n- rm -rf /', 'rm -rf /', true],
    ['Steps:\n- rm -rf /', 'rm -rf /', false],
    ['## Anti-patterns\n\nrm -rf /', 'rm -rf /', true],
    ['## Setup\n\nrm -rf /', 'rm -rf /', false],
    ['```sh\n# never do this\nrm -rf /\n```', 'rm -rf /', false],
  ];
  it.each(cases)('%j', (text, needle, expected) => {
    expect(at(text, needle)).toBe(expected);
  });
});
