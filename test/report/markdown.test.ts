/**
 * The pull-request comment: marker and verdict first, then the summary table,
 * details folded; escaping of inline text and code; and the 65,536-character
 * limit GitHub puts on a comment, with a note saying what was left out.
 */
import { describe, expect, it } from 'vitest';
import { renderReport } from '../../src/report/reporters/index.js';
import { COMMENT_MARKER } from '../../src/report/reporters/markdown-parts.js';
import { COMMENT_LIMIT, fitSections, mdCode, mdFence, mdText } from '../../src/report/reporters/markdown-util.js';
import { diffReportOf } from '../../src/report/reporters/from-diff.js';
import { sampleDiff } from './fixtures/diff.js';
import { TOOL, sampleBuild, sampleLint } from './fixtures/reports.js';

describe('escaping', () => {
  it.each([
    ['plain words', 'plain words'],
    ['a|b', 'a\\|b'],
    ['<script>', '\\<script\\>'],
    ['*bold* _it_ [x](y) ~s~', '\\*bold\\* \\_it\\_ \\[x\\](y) \\~s\\~'],
    ['ping @octocat and #12', 'ping @&#8203;octocat and #&#8203;12'],
    ['AGENTS.md#testing', 'AGENTS.md#testing'],
    ['a &amp; b', 'a &amp;amp; b'],
    ['two\nlines', 'two lines'],
  ])('mdText(%j) = %j', (raw, md) => expect(mdText(raw)).toBe(md));

  it.each([
    ['x', false, '`x`'],
    ['a`b', false, '``a`b``'],
    ['`edge`', false, '`` `edge` ``'],
    ['a|b', true, '`a\\|b`'],
    ['', false, '*(empty)*'],
  ])('mdCode(%j, table %s) = %j', (raw, inTable, md) => expect(mdCode(raw, inTable)).toBe(md));

  it('a fence is longer than any backtick run inside it', () => {
    expect(mdFence(['```', 'x'])).toBe('````\n```\nx\n````');
    expect(mdFence(['plain'], 'diff')).toBe('```diff\nplain\n```');
  });
});

describe('layout', () => {
  it.each([['lint', sampleLint()], ['build', sampleBuild()], ['diff', diffReportOf(sampleDiff(), TOOL)]] as const)('%s: marker, verdict, summary table, then folded details', (_n, report) => {
    const md = renderReport(report, 'markdown');
    const lines = md.split('\n');
    expect(lines[0]).toBe(COMMENT_MARKER);
    expect(lines[1]).toMatch(/^### (✅|❌|ℹ️) rulec: /);
    const firstTable = md.indexOf('\n| ');
    const firstDetails = md.indexOf('<details');
    expect(firstTable).toBeGreaterThan(0);
    expect(firstDetails).toBeGreaterThan(firstTable);
    expect(md.match(/<details/g)?.length).toBe(md.match(/<\/details>/g)?.length);
  });

  it('errors open the diagnostics section; a clean lint says so', () => {
    expect(renderReport(sampleLint(), 'markdown')).toContain('<details open><summary>Diagnostics: 1 error, 3 warnings, 0 infos</summary>');
    const clean = renderReport(sampleLint([]), 'markdown');
    expect(clean).toContain('### ✅ rulec: Lint passed: no errors');
    expect(clean).not.toContain('Diagnostics:');
  });
});

describe('the comment limit', () => {
  function hugeDiff() {
    const d = sampleDiff();
    const template = d.rules[0]!;
    d.rules = Array.from({ length: 3000 }, (_, i) => ({ ...template, rule: `packages/p${i}/AGENTS.md#testing`, added_lines: [`Run \`pnpm vitest run --project p${i}\` before you push.`, 'x'.repeat(200)] }));
    d.affected.directories = Array.from({ length: 100 }, (_, i) => ({ dir: `packages/p${i}`, count: 10, examples: [`packages/p${i}/a.ts`] }));
    return d;
  }

  it('keeps the head and as much detail as fits, under 65,536 characters, and says it truncated', () => {
    const md = renderReport(diffReportOf(hugeDiff(), TOOL), 'markdown');
    expect(new TextEncoder().encode(md).length).toBeLessThanOrEqual(COMMENT_LIMIT);
    expect(md.length).toBeGreaterThan(COMMENT_LIMIT / 2);
    expect(md).toMatch(/> \*\*Truncated:\*\* [\d,]+ items left out to stay under GitHub's 65,536-character comment limit\./);
    expect(md).toContain('| prompt cache |');
    expect(md).toContain('Rules changed (3000)');
    expect(md).toMatch(/…and [\d,]+ more\./);
    expect(md.match(/<details/g)?.length).toBe(md.match(/<\/details>/g)?.length);
    expect((md.match(/^\s*```/gm)?.length ?? 0) % 2).toBe(0);
  });

  it('fitSections keeps as many items of a section as fit, and drops one that never does', () => {
    const items = Array.from({ length: 100 }, (_, i) => `item ${i} ${'y'.repeat(50)}`);
    const render = (shown: readonly string[], omitted: number) => `${shown.join('\n')}${omitted ? `\n+${omitted}` : ''}`;
    const out = fitSections('HEAD', [{ title: 'a', items, render }, { title: 'b', items: ['z'.repeat(5000)], render }], 'see the JSON.', 1024 + 3000);
    expect(out.startsWith('HEAD\n\nitem 0')).toBe(true);
    expect(out).not.toContain('zzz');
    expect(out).toContain('see the JSON.');
    expect(new TextEncoder().encode(out).length).toBeLessThanOrEqual(1024 + 3000);
  });
});
