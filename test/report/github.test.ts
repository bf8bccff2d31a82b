/**
 * GitHub workflow commands: the escaping @actions/core applies (data: % CR
 * LF; properties also : and ,), severities mapped to error/warning/notice,
 * files outside the repository named in the message instead of annotated.
 */
import { describe, expect, it } from 'vitest';
import { annotation, escapeData, escapeProperty } from '../../src/report/reporters/github.js';
import { renderReport } from '../../src/report/reporters/index.js';
import { sampleDiagnostics, sampleLint } from './fixtures/reports.js';

describe('escaping', () => {
  it.each([
    ['plain', 'plain', 'plain'],
    ['50%', '50%25', '50%25'],
    ['a\nb\r\nc', 'a%0Ab%0D%0Ac', 'a%0Ab%0D%0Ac'],
    ['a:b,c', 'a:b,c', 'a%3Ab%2Cc'],
    ['%0A', '%250A', '%250A'],
  ])('%j → data %j, property %j', (raw, data, prop) => {
    expect(escapeData(raw)).toBe(data);
    expect(escapeProperty(raw)).toBe(prop);
  });
});

describe('annotations', () => {
  const [glob, conflict, managed, fileless] = sampleDiagnostics() as [never, never, never, never];

  it('a repository file gets file, line, col, endColumn and the catalogue title', () => {
    expect(annotation(glob)).toBe('::warning file=.claude/rules/legacy.md,line=2,col=1,endColumn=6,title=RC3002 glob matches no tracked file::' +
      'glob "legacy/**" matches no file in the repository; the rule never loads%0Ahint: fix the pattern or delete the rule');
  });

  it('related locations follow the message; a multi-line range gets endLine', () => {
    expect(annotation(conflict)).toContain('%0Arelated: AGENTS.md:7:1 - also: pnpm — Use pnpm for every install.');
    const wide = { ...(glob as object), range: { start: { line: 2, col: 1 }, end: { line: 4, col: 2 } } } as never;
    expect(annotation(wide)).toContain(',endLine=4,');
  });

  it('managed files and findings about no file are not annotated on a path', () => {
    expect(annotation(managed)).toMatch(/^::error title=RC6201 download piped into a shell::managed:policy\/CLAUDE\.md:4:3: pipes/);
    expect(annotation(fileless)).toMatch(/^::warning title=RC3302 [^:]*::override/);
  });

  it('info becomes a notice; a file name with , and : cannot add a property', () => {
    const d = { code: 'RC1004', severity: 'info', file: 'a,title=x:y.md', range: { start: { line: 1, col: 1 }, end: { line: 1, col: 1 } }, message: 'm' } as never;
    expect(annotation(d)).toBe('::notice file=a%2Ctitle=x%3Ay.md,line=1,col=1,title=RC1004 local files not included::m');
  });

  it('the report ends with one summary line', () => {
    const out = renderReport(sampleLint(), 'github').trimEnd().split('\n');
    expect(out).toHaveLength(5);
    expect(out[4]).toBe('rulec lint: Lint failed: 1 error. Found 1 error, 3 warnings, 0 infos in 3 files.');
  });
});
