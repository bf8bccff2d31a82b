/**
 * Every format renders every command's report: deterministically, without
 * touching the report, and safely — hostile file names and text (markup,
 * mentions, workflow commands, terminal escapes, bidi overrides) never reach
 * the output in a form that acts. Golden text and Markdown of the sample diff
 * and check (UPDATE_GOLDEN=1 rewrites test/report/expected/).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/util/errors.js';
import { REPORTERS, REPORT_FORMATS, renderReport, reportFormatOf } from '../../src/report/reporters/index.js';
import type { Report } from '../../src/report/reporters/types.js';
import { expectTree } from '../helpers/golden.js';
import { hostileReports, sampleReports } from './fixtures/reports.js';

const each = (reports: Report[]): [string, string, Report][] =>
  reports.flatMap((r) => REPORT_FORMATS.map((f): [string, string, Report] => [r.command, f, r]));

/** Markdown outside fenced blocks (indented ones in list items too) and one-line code spans: what GitHub would treat as markup. */
function markdownProse(md: string): string {
  return md.replace(/^( *)(`{3,})[^\n]*\n[\s\S]*?\n\1\2$/gm, '').replace(/(`+)(?:(?!\1)[^\n])*?\1/g, '');
}

describe('the format table', () => {
  it('has one reporter per format, under its own name', () => {
    expect(Object.keys(REPORTERS).sort()).toEqual([...REPORT_FORMATS].sort());
    for (const f of REPORT_FORMATS) expect(REPORTERS[f].format).toBe(f);
  });

  it('refuses an unknown format with the list of formats', () => {
    expect(() => reportFormatOf('xml')).toThrow(UsageError);
    expect(() => reportFormatOf('xml')).toThrow('unknown format "xml"; use one of: text, json, markdown, sarif, github, html');
    expect(() => reportFormatOf('__proto__')).toThrow(UsageError);
  });
});

describe.each(each(sampleReports()))('%s as %s', (_command, format, report) => {
  it('is deterministic, ends with a newline and leaves the report untouched', () => {
    const before = JSON.stringify(report);
    const a = renderReport(report, format as never);
    expect(renderReport(report, format as never)).toBe(a);
    expect(a.endsWith('\n')).toBe(true);
    expect(a.length).toBeGreaterThan(20);
    expect(JSON.stringify(report)).toBe(before);
    if (format === 'json' || format === 'sarif') expect(() => JSON.parse(a) as unknown).not.toThrow();
  });
});

describe.each(each(hostileReports()))('hostile %s as %s', (_command, format, report) => {
  const out = renderReport(report, format as never);

  it('prints no raw control or bidi character in any format; JSON and SARIF still read back the same strings', () => {
    expect(out).not.toMatch(/[\u001b\u202e]/);
    expect(out).toContain('\\u001b');
    if (format === 'json') expect(JSON.stringify(JSON.parse(out))).toContain('\\u001b[31m\u202e');
    if (format === 'sarif') expect(() => JSON.parse(out) as unknown).not.toThrow();
  });

  it('cannot inject markup, mentions or commands', () => {
    if (format === 'html') {
      expect(out.match(/<script/g)).toHaveLength(1);
      expect(out).not.toContain('<img');
      expect(out.match(/<\/style>/g)).toHaveLength(1);
      expect(out).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(2)&gt;');
    }
    if (format === 'markdown') {
      const prose = markdownProse(out);
      expect(prose).not.toMatch(/(?<!\\)<(script|img|\/style)/);
      expect(prose.match(/<details/g)?.length).toBe(prose.match(/<\/details>/g)?.length);
      expect(prose).not.toMatch(/@octocat/);
      expect(prose).not.toMatch(/#12/);
      expect(prose).not.toMatch(/(?<!\\)[[\]]/);
    }
    if (format === 'github') {
      for (const line of out.trimEnd().split('\n')) expect(line).toMatch(/^(::(error|warning|notice)( [^:]*)?::|rulec )/);
    }
    if (format === 'text') {
      for (const line of out.split('\n')) expect(line.trimStart().startsWith('::')).toBe(false);
    }
  });
});

describe('golden review output', () => {
  it('text, Markdown and GitHub output of the sample lint, build, diff and check', () => {
    const [lint, build, diff, check] = sampleReports() as [Report, Report, Report, Report];
    const files = new Map<string, string>();
    for (const [name, r] of [['lint', lint], ['build', build], ['diff', diff], ['check', check]] as const) {
      files.set(`${name}.txt`, renderReport(r, 'text'));
      files.set(`${name}.md`, renderReport(r, 'markdown'));
      files.set(`${name}.github.txt`, renderReport(r, 'github'));
    }
    expectTree(join(import.meta.dirname, 'expected'), files);
  });
});
