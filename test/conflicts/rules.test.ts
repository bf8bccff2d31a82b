import { describe, expect, it } from 'vitest';
import { rulesOf, slugify } from '../../src/conflicts/rules.js';
import { parseDoc } from '../../src/parse/parse-doc.js';
import type { SourceFile } from '../../src/types.js';

function doc(text: string, id = 'AGENTS.md') {
  const file: SourceFile = { id, rel: id, root: 'repo', format: 'agents', layer: 'repo', scope: '', bytes: new TextEncoder().encode(text), tracked: true };
  return parseDoc(file).value;
}
const ids = (text: string) => rulesOf(doc(text)).map((r) => [r.id, r.line, r.statements.map((s) => s.text)]);

describe('rulesOf', () => {
  it('a title with a preamble is one top rule; sections are slugged heading paths below the title', () => {
    expect(ids('# Acme Shop\n\nIntro.\n\n## Setup\n\n- Use pnpm.\n\n### Node\n\nNode 20.\n\n## Testing\n\n- `pnpm test`\n')).toEqual([
      ['_top', 1, ['Intro.']],
      ['setup', 5, ['Use pnpm.']],
      ['setup/node', 9, ['Node 20.']],
      ['testing', 13, ['`pnpm test`']],
    ]);
  });

  it('frontmatter id names the top rule and prefixes the others', () => {
    const rules = rulesOf(doc('---\nid: managed-security\nenforce: true\n---\n\n# Policy\n\n- Never commit secrets.\n\n## Logging\n\n- Never log bodies.\n'));
    expect(rules.map((r) => [r.id, r.explicit, r.line])).toEqual([['managed-security', true, 6], ['managed-security/logging', false, 10]]);
  });

  it('a marker before a heading names the section; the marker line is not text', () => {
    const rules = rulesOf(doc('# G\n\n<!-- rule: test-command -->\n\n## How we test\n\n- `go test ./...`\n\n## Other\n\nx\n'));
    expect(rules.map((r) => [r.id, r.explicit])).toEqual([['_top', false], ['test-command', true], ['other', false]]);
  });

  it('a marker separated from the heading by text names nothing', () => {
    expect(ids('# G\n\n<!-- rule: lost -->\nsome text\n\n## A\n\nx\n').map((r) => r[0])).toEqual(['_top', 'a']);
  });

  it('without a single H1 title every heading is part of the path; no headings is one top rule', () => {
    expect(ids('# One\n\na\n\n# Two\n\nb\n').map((r) => r[0])).toEqual(['one', 'two']);
    expect(ids('- Use pnpm.\n- Node 20.\n')).toEqual([['_top', 1, ['Use pnpm.', 'Node 20.']]]);
  });

  it('same-named sections are told apart by occurrence, not by position', () => {
    expect(ids('# G\n\n## Notes\n\na\n\n## Notes\n\nb\n').map((r) => r[0])).toEqual(['_top', 'notes', 'notes~2']);
  });

  it('ids do not move when unrelated text is inserted', () => {
    const before = rulesOf(doc('# G\n\n## Setup\n\n- Use pnpm.\n\n## Tests\n\n- `pnpm test`\n')).map((r) => r.id);
    const after = rulesOf(doc('# G\n\nA new intro paragraph.\n\n## Setup\n\nMore words here.\n\n- Use pnpm.\n\n## Tests\n\n- `pnpm test`\n\n## Appendix\n\nz\n')).map((r) => r.id);
    expect(after.filter((id) => id !== 'appendix')).toEqual(before);
  });

  it('fenced code is not statements; list items, continuations and table rows are', () => {
    const rules = rulesOf(doc('# G\n\n- one\n  continued\n- two\n\n```sh\nnpm install\n```\n\n| a | b |\n|---|---|\n| c | d |\n\n> quoted <!-- hidden -->\n'));
    expect(rules[0]?.statements.map((s) => [s.text.trim(), s.line, s.col])).toEqual([
      ['one continued', 3, 3], ['two', 5, 3], ['| a | b |', 11, 1], ['| c | d |', 13, 1], ['quoted', 15, 3],
    ]);
  });

  it('slugify keeps ascii letters and digits', () => {
    expect([slugify('Setup & Tooling!'), slugify('Café déjà vu'), slugify('***'), slugify('`pnpm` usage')]).toEqual(['setup-tooling', 'cafe-deja-vu', 'section', 'pnpm-usage']);
  });
});
