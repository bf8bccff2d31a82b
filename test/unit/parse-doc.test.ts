import { describe, expect, it } from 'vitest';
import { parseDoc } from '../../src/parse/parse-doc.js';
import { headingOf, scanLines } from '../../src/parse/markdown-scan.js';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';
import type { FormatName, ImportRef, ParsedDoc, SourceFile, Span } from '../../src/types.js';

function source(id: string, content: string | Uint8Array, format: FormatName = 'claude'): SourceFile {
  return { id, rel: id, root: 'repo', format, layer: 'repo', scope: '', bytes: typeof content === 'string' ? Buffer.from(content) : content, tracked: true };
}

/** A whole ParsedDoc: the defaults of a plain file, overridden per case. */
function docOf(id: string, text: string, over: Partial<ParsedDoc> = {}): ParsedDoc {
  return {
    id,
    text,
    body: text,
    bodyLine: 1,
    frontmatter: null,
    frontmatterKeys: {},
    imports: [],
    ...over,
  };
}

const span = (line: number, col: number, endLine: number, endCol: number): Span => ({ start: { line, col }, end: { line: endLine, col: endCol } });

/** The import written as `@raw` at 1-based `col` of `line`. */
function imp(target: string, line: number, col: number, raw = target): ImportRef {
  return { target, span: span(line, col, line, col + 1 + raw.length) };
}

/** 1-based column of the first `needle` in `line`. */
const colOf = (line: string, needle: string): number => {
  const i = line.indexOf(needle);
  if (i < 0) throw new Error(`${needle} not in ${line}`);
  return i + 1;
};

const utf8Diag = (line: number, col: number): Diagnostic => ({
  code: 'RC2003',
  severity: 'error',
  file: 'a.md',
  range: span(line, col, line, col + 1),
  message: 'file is not valid UTF-8; invalid bytes were replaced with U+FFFD',
  hint: 're-save the file as UTF-8',
});

describe('parseDoc: text and encoding', () => {
  it('a plain file without frontmatter', () => {
    const text = 'Use pnpm.\n';
    expect(parseDoc(source('AGENTS.md', text, 'agents'))).toEqual({ value: docOf('AGENTS.md', text), diagnostics: [] });
  });

  it('an empty file', () => {
    expect(parseDoc(source('AGENTS.md', '', 'agents'))).toEqual({ value: docOf('AGENTS.md', ''), diagnostics: [] });
  });

  it('empty frontmatter', () => {
    expect(parseDoc(source('a.md', '---\n---\n# T\n'))).toEqual({
      value: docOf('a.md', '---\n---\n# T\n', { body: '# T\n', bodyLine: 3, frontmatter: {} }),
      diagnostics: [],
    });
  });

  it('strips a BOM and normalises CRLF and lone CR, positions in the normalised text', () => {
    const bytes = Buffer.from('\uFEFF---\r\npaths: src/**\r\n---\r\n# T\r\nsee @x.md\rnext\r\n');
    const text = '---\npaths: src/**\n---\n# T\nsee @x.md\nnext\n';
    expect(parseDoc(source('.claude/rules/r.md', bytes, 'claude-rule'))).toEqual({
      value: docOf('.claude/rules/r.md', text, {
        body: '# T\nsee @x.md\nnext\n',
        bodyLine: 4,
        frontmatter: { paths: 'src/**' },
        frontmatterKeys: { paths: span(2, 1, 2, 6) },
        imports: [imp('x.md', 5, 5)],
      }),
      diagnostics: [],
    });
  });

  it('a BOM alone is not CRLF', () => {
    expect(parseDoc(source('a.md', Buffer.from('\uFEFFx\n')))).toEqual({ value: docOf('a.md', 'x\n'), diagnostics: [] });
  });

  it('invalid UTF-8 becomes U+FFFD with RC2003 at the first bad byte', () => {
    const bytes = Buffer.concat([Buffer.from('ok\nab'), Buffer.from([0xff]), Buffer.from('c '), Buffer.from([0xc3]), Buffer.from('\n')]);
    expect(parseDoc(source('a.md', bytes))).toEqual({
      value: docOf('a.md', 'ok\nab\uFFFDc \uFFFD\n'),
      diagnostics: [utf8Diag(2, 3)],
    });
  });

  it('positions RC2003 in the text after the BOM is stripped', () => {
    const bytes = Buffer.concat([Buffer.from('\uFEFFab'), Buffer.from([0xff]), Buffer.from('c\n')]);
    expect(parseDoc(source('a.md', bytes))).toEqual({
      value: docOf('a.md', 'ab\uFFFDc\n'),
      diagnostics: [utf8Diag(1, 3)],
    });
  });

  it('positions RC2003 on the line a lone CR starts', () => {
    const bytes = Buffer.concat([Buffer.from('x\rab'), Buffer.from([0xc3]), Buffer.from('c\r\n')]);
    expect(parseDoc(source('a.md', bytes))).toEqual({
      value: docOf('a.md', 'x\nab\uFFFDc\n'),
      diagnostics: [utf8Diag(2, 3)],
    });
  });

  it('reports a bad header and still parses the body', () => {
    const text = '---\na: 1\nb: c: d\n---\n# Body\n@x.md\n';
    expect(parseDoc(source('a.md', text))).toEqual({
      value: docOf('a.md', text, { body: '# Body\n@x.md\n', bodyLine: 5, imports: [imp('x.md', 6, 1)] }),
      diagnostics: [{ code: 'RC2001', severity: 'error', file: 'a.md', range: span(3, 4, 3, 5), message: 'Nested mappings are not allowed in compact mappings' }],
    });
  });

  it('reads a cursor rule header leniently', () => {
    const text = '---\ndescription: TS rules\nglobs: *.ts\n---\nbody\n';
    expect(parseDoc(source('.cursor/rules/ts.mdc', text, 'cursor-rule'))).toEqual({
      value: docOf('.cursor/rules/ts.mdc', text, {
        body: 'body\n',
        bodyLine: 5,
        frontmatter: { description: 'TS rules', globs: '*.ts' },
        frontmatterKeys: { description: span(2, 1, 2, 12), globs: span(3, 1, 3, 6) },
      }),
      diagnostics: [{
        code: 'RC2006',
        severity: 'info',
        file: '.cursor/rules/ts.mdc',
        range: span(2, 1, 2, 1),
        message: 'frontmatter is not valid YAML; read as plain key: value lines, as Cursor reads it',
        hint: 'quote glob values: globs: "*.ts"',
      }],
    });
  });
});

describe('markdown-scan: headings', () => {
  /** [level, text, line] of each heading outside fenced code. */
  const headings = (text: string): [number, string, number][] => scanLines(text, 1).flatMap((l) => {
    const h = l.inFence ? null : headingOf(l.text);
    return h ? [[h.level, h.text, l.line] as [number, string, number]] : [];
  });

  it('finds ATX headings by level and ignores headings in fenced code', () => {
    const text = [
      '# A', 'text', '### C', '## B',
      '```js', '# not a heading', '```',
      '~~~', '## nor this', '~~~',
      '#hashtag', '    # indented code', '####### seven', '## B2 ##', '  ### C2', '# Z', '',
    ].join('\n');
    expect(headings(text)).toEqual([[1, 'A', 1], [3, 'C', 3], [2, 'B', 4], [2, 'B2', 14], [3, 'C2', 15], [1, 'Z', 16]]);
  });

  it('an unclosed fence hides the rest of the file; a longer fence needs a longer close', () => {
    const text = ['# A', '````', '```', '# in fence', '````', '## B', '```', '# hidden'].join('\n');
    expect(headings(text)).toEqual([[1, 'A', 1], [2, 'B', 6]]);
  });
});

describe('parseDoc: imports', () => {
  const lines = [
    '# Imports @heading.md',
    'See @docs/a.md and @b.md.',
    'Mail me at me@example.com or @me',
    '`@code/a.md` and ``@code/b.md ` x`` then @after.md',
    '<!-- @hidden.md --> @shown.md',
    '<!-- start',
    '@hidden2.md',
    'end --> @shown2.md',
    '```',
    '@fenced.md',
    '```',
    '~~~md',
    '@tilde.md',
    '~~~',
    '@My\\ Documents/x.md tail',
    '\t@tabbed.md',
    'a`@unclosed.md',
    '',
  ];
  const text = lines.join('\n');
  const L = (n: number): string => lines[n - 1] as string;

  it('finds @path at word starts with positions, skipping code, comments and emails', () => {
    expect(parseDoc(source('CLAUDE.md', text)).value.imports).toEqual([
      imp('heading.md', 1, colOf(L(1), '@heading.md')),
      imp('docs/a.md', 2, 5),
      imp('b.md.', 2, 20),
      imp('me', 3, 30),
      imp('after.md', 4, colOf(L(4), '@after.md')),
      imp('shown.md', 5, 21),
      imp('shown2.md', 8, 9),
      imp('My Documents/x.md', 15, 1, 'My\\ Documents/x.md'),
      imp('tabbed.md', 16, 2),
    ]);
  });

  it('offsets import lines by the frontmatter', () => {
    expect(parseDoc(source('CLAUDE.md', `---\nx: 1\n---\n${text}`)).value.imports.map((i) => i.span.start)).toEqual(
      [1, 2, 2, 3, 4, 5, 8, 15, 16].map((line, k) => ({ line: line + 3, col: [11, 5, 20, 30, colOf(L(4), '@after.md'), 21, 9, 1, 2][k] })),
    );
  });

  it('an HTML comment carries across a fenced block', () => {
    const t = ['<!--', '```', '@a.md', '```', '@b.md -->', '@c.md'].join('\n');
    expect(parseDoc(source('a.md', t)).value.imports).toEqual([imp('c.md', 6, 1)]);
  });
});
