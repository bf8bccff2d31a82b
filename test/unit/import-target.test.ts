import { describe, expect, it } from 'vitest';
import { importCandidates, importTarget, looksLikePath, type ImportRoots, type ImportTarget } from '../../src/parse/import-target.js';

const roots: ImportRoots = { repo: '/work/repo', managed: '/etc/rulec', home: '/home/u' };
const noHome: ImportRoots = { repo: '/work/repo', managed: '/etc/rulec' };

const file = (id: string): ImportTarget => ({ kind: 'file', id });
const outside = (why: string): ImportTarget => ({ kind: 'outside', why });
const ABOVE_REPO = outside('resolves above the repository root');
const ABS_OUTSIDE = outside('absolute path outside the root');

describe('importTarget', () => {
  it.each<[string, string, ImportRoots, ImportTarget]>([
    ['CLAUDE.md', 'docs/a.md', roots, file('docs/a.md')],
    ['packages/api/CLAUDE.md', 'x.md', roots, file('packages/api/x.md')],
    ['packages/api/CLAUDE.md', './x.md', roots, file('packages/api/x.md')],
    ['packages/api/CLAUDE.md', '../shared/x.md', roots, file('packages/shared/x.md')],
    ['packages/api/CLAUDE.md', '../../x.md', roots, file('x.md')],
    ['packages/api/CLAUDE.md', 'a/./b/../c.md', roots, file('packages/api/a/c.md')],
    ['packages/api/CLAUDE.md', '../../../x.md', roots, ABOVE_REPO],
    ['CLAUDE.md', '../x.md', roots, ABOVE_REPO],
    ['CLAUDE.md', '.', roots, ABOVE_REPO],
    ['CLAUDE.md', 'a/..', roots, ABOVE_REPO],
    ['CLAUDE.md', '/work/repo/docs/a.md', roots, file('docs/a.md')],
    ['packages/api/CLAUDE.md', '/work/repo/docs/a.md', roots, file('docs/a.md')],
    ['CLAUDE.md', '/work/repo/./docs//a.md', roots, file('docs/a.md')],
    ['CLAUDE.md', '/work/repo', roots, ABS_OUTSIDE],
    ['CLAUDE.md', '/work/repo/', roots, ABS_OUTSIDE],
    ['CLAUDE.md', '/work/repository/x.md', roots, ABS_OUTSIDE],
    ['CLAUDE.md', '/etc/passwd', roots, ABS_OUTSIDE],
    ['CLAUDE.md', '/work/repo/../secret.md', roots, ABS_OUTSIDE],
    ['CLAUDE.md', '/work/repo/a/../../repo2/x.md', roots, ABS_OUTSIDE],
    ['CLAUDE.md', '/work/other/../repo/x.md', roots, file('x.md')],
    ['CLAUDE.md', '/etc/rulec/base.md', roots, ABS_OUTSIDE],
    ['CLAUDE.md', '~/x.md', roots, outside('@~/ imports are only allowed in managed and user files')],
    ['CLAUDE.md', '~/x.md', noHome, outside('@~/ imports are only allowed in managed and user files')],
    ['managed:policies/base.md', 'extra.md', roots, file('managed:policies/extra.md')],
    ['managed:policies/base.md', '../top.md', roots, file('managed:top.md')],
    ['managed:policies/base.md', '../../x.md', roots, outside('resolves above the managed root')],
    ['managed:base.md', '/etc/rulec/sub/a.md', roots, file('managed:sub/a.md')],
    ['managed:base.md', '/work/repo/a.md', roots, ABS_OUTSIDE],
    ['managed:base.md', '/etc/rulec/a.md', { repo: '/work/repo' }, ABS_OUTSIDE],
    ['managed:base.md', '~/x.md', roots, outside('imports from the home directory are not read')],
    ['managed:base.md', '~/x.md', noHome, outside('the home directory is not part of this build (pass --include-user)')],
    ['user:CLAUDE.md', 'rules/x.md', roots, file('user:rules/x.md')],
    ['user:CLAUDE.md', '/home/u/y.md', roots, file('user:y.md')],
    ['user:CLAUDE.md', '../x.md', roots, outside('resolves above the user root')],
  ])('%s imports %s', (from, target, r, expected) => {
    expect(importTarget(from, target, r)).toEqual(expected);
  });
});

describe('importCandidates', () => {
  it.each<[string, string[]]>([
    ['AGENTS.md', ['AGENTS.md']],
    ['AGENTS.md.', ['AGENTS.md.', 'AGENTS.md']],
    ['docs/a.md),', ['docs/a.md),', 'docs/a.md']],
    ["x.md'", ["x.md'", 'x.md']],
    ['x.md"]}!?;:', ['x.md"]}!?;:', 'x.md']],
    ['...', ['...']],
    ['./x', ['./x']],
    ['.x.', ['.x.', '.x']],
  ])('%j → %j', (target, expected) => {
    expect(importCandidates(target)).toEqual(expected);
  });
});

describe('looksLikePath', () => {
  it.each<[string, boolean]>([
    ['docs/x', true],
    ['x.md', true],
    ['x.MDC', true],
    ['x.markdown', true],
    ['notes.txt', true],
    ['x.md.', true],
    ['x.md),', true],
    ['me', false],
    ['Component', false],
    ['x.ts', false],
    ['user.name', false],
    ['md', false],
  ])('%j → %j', (target, expected) => {
    expect(looksLikePath(target)).toBe(expected);
  });
});
